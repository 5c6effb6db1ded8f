import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { AdminOrderList, AdminOrderRow, AdminOrderStats, AdminOrderView } from "~/lib/orders-view";
import { type Db, orderEvents, orderItems, orders, pageParam, user } from "../../platform/index.server";
import { orderMoneyColumns, orderMoneyOf } from "./order-money.server";
import { isOrderNeed, orderNeedCondition, type OrderNeed } from "./attention.server";
import { ORDER_NUMBER_PATTERN } from "./order-number.server";
import { refundToConfirm } from "../settlement/refund-difference.server";
import { allowedMoves, isOrderStatus, type OrderStatus } from "./status.server";

export const ADMIN_ORDERS_PAGE_SIZE = 20;

export type AdminOrderQuery = {
  status: OrderStatus | "all";
  /** Order number, email or name (part of any); empty for all. */
  q: string;
  /** Orders placed while signed in to this account. */
  customer: string | null;
  /** Orders that need the owner (the dashboard's 'Needs attention' links): see attention.server.ts. */
  needs?: OrderNeed | null;
  /** The payment state (the ledger's, cached on the order by settlement/ledger.server.ts); "all" for any. */
  payment?: PaymentFilter;
  page: number;
};

export const PAYMENT_FILTERS = ["unpaid", "paid", "partially_refunded", "refunded"] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number] | "all";
const isPaymentFilter = (v: string | null): v is (typeof PAYMENT_FILTERS)[number] => (PAYMENT_FILTERS as readonly string[]).includes(v ?? "");

const CUSTOMER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The list's URL parameters; anything unusable falls back to the default instead of failing. */
export function parseAdminOrderQuery(url: URL): AdminOrderQuery {
  const p = url.searchParams;
  const status = p.get("status") ?? "all";
  const customer = p.get("customer") ?? "";
  const needs = p.get("needs");
  return {
    status: isOrderStatus(status) ? status : "all",
    q: (p.get("q") ?? "").trim().slice(0, 100),
    customer: CUSTOMER_ID.test(customer) ? customer : null,
    needs: isOrderNeed(needs) ? needs : null,
    payment: isPaymentFilter(p.get("payment")) ? (p.get("payment") as PaymentFilter) : "all",
    page: pageParam(p),
  };
}

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
const likeLiteral = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(query: Omit<AdminOrderQuery, "page">): SQL | undefined {
  const parts: SQL[] = [];
  if (query.status !== "all") parts.push(eq(orders.status, query.status));
  if (query.customer) parts.push(eq(orders.userId, query.customer));
  if (query.needs) parts.push(orderNeedCondition(query.needs));
  if (query.payment && query.payment !== "all") parts.push(eq(orders.paymentStatus, query.payment));
  if (query.q) {
    const pattern = likeLiteral(query.q);
    parts.push(
      or(
        ilike(orders.orderNumber, pattern),
        ilike(orders.email, pattern),
        ilike(sql`${orders.firstName} || ' ' || ${orders.lastName}`, pattern),
      )!,
    );
  }
  return parts.length ? and(...parts) : undefined;
}

// Written out: drizzle leaves columns in a select unqualified, and "id" would mean order_items.id here.
const itemsCount = sql<number>`(select coalesce(sum(oi.quantity), 0)::int from ${orderItems} oi where oi.order_id = "orders"."id")`;

const listColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  createdAt: orders.createdAt,
  firstName: orders.firstName,
  lastName: orders.lastName,
  email: orders.email,
  itemsCount,
  totalAmountCents: orders.totalAmountCents,
  paymentStatus: orders.paymentStatus,
  status: orders.status,
};

/** One page of orders, newest first, with the number of orders matching the filter. */
export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<AdminOrderList> {
  const where = whereOf(query);
  const [rows, [count]] = await Promise.all([
    db
      .select(listColumns)
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(ADMIN_ORDERS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_ORDERS_PAGE_SIZE),
    db.select({ total: sql<number>`count(*)::int` }).from(orders).where(where),
  ]);
  const total = count?.total ?? 0;
  return {
    total,
    pages: Math.max(1, Math.ceil(total / ADMIN_ORDERS_PAGE_SIZE)),
    orders: rows.map(
      (r): AdminOrderRow => ({
        id: r.id,
        orderNumber: r.orderNumber,
        createdAt: r.createdAt.toISOString(),
        customerName: `${r.firstName} ${r.lastName}`.trim(),
        email: r.email,
        itemsCount: r.itemsCount,
        totalAmountCents: r.totalAmountCents,
        paymentStatus: r.paymentStatus,
        status: r.status,
      }),
    ),
  };
}

/**
 * Revenue counts paid orders that were not cancelled (docs/decisions/0004), partially refunded
 * ones included, less what the ledger gave back of them (orders.refunded_cents).
 */
export const COUNTS_AS_REVENUE = sql`${orders.paymentStatus} in ('paid', 'partially_refunded') and ${orders.status} <> 'cancelled'`;

export async function getAdminOrderStats(db: Db): Promise<AdminOrderStats> {
  const [row] = await db
    .select({
      totalOrders: sql<number>`count(*)::int`,
      paidOrders: sql<number>`(count(*) filter (where ${COUNTS_AS_REVENUE}))::int`,
      // A sum of int is a bigint, which the driver returns as text.
      revenue: sql<string>`coalesce(sum(${orders.totalAmountCents} - ${orders.refundedCents}) filter (where ${COUNTS_AS_REVENUE}), 0)::text`,
      pending: sql<number>`(count(*) filter (where ${orders.status} = 'pending'))::int`,
      processing: sql<number>`(count(*) filter (where ${orders.status} = 'processing'))::int`,
      shipped: sql<number>`(count(*) filter (where ${orders.status} = 'shipped'))::int`,
    })
    .from(orders);
  return {
    totalOrders: row?.totalOrders ?? 0,
    paidOrders: row?.paidOrders ?? 0,
    revenueCents: Number(row?.revenue ?? 0),
    pending: row?.pending ?? 0,
    processing: row?.processing ?? 0,
    shipped: row?.shipped ?? 0,
  };
}

/** An order page address: the order's id, or its number (what a shopper reads out on the phone). */
function orderKey(idOrNumber: string): SQL | null {
  if (z.uuid().safeParse(idOrNumber).success) return eq(orders.id, idOrNumber);
  if (ORDER_NUMBER_PATTERN.test(idOrNumber)) return eq(orders.orderNumber, idOrNumber);
  return null;
}

/** Everything the order page shows, or null for an unknown or malformed id. */
export async function getAdminOrder(db: Db, idOrNumber: string): Promise<AdminOrderView | null> {
  const key = orderKey(idOrNumber);
  if (!key) return null;
  const [order] = await db.select().from(orders).where(key);
  if (!order) return null;
  const [lines, events, account, refund] = await Promise.all([
    db
      .select({
        id: orderItems.id,
        productId: orderItems.productId,
        name: orderItems.name,
        unitPriceCents: orderItems.unitPriceCents,
        quantity: orderItems.quantity,
        lineTotalCents: orderItems.lineTotalCents,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db
      .select({
        id: orderEvents.id,
        kind: orderEvents.kind,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        note: orderEvents.note,
        actorLabel: orderEvents.actorLabel,
        actorEmail: user.email,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .leftJoin(user, eq(user.id, orderEvents.actorUserId))
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    order.userId
      ? db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, order.userId))
      : Promise.resolve([]),
    refundToConfirm(db, order.id),
  ]);
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    paymentStatus: order.paymentStatus,
    version: order.version,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    stockReturned: order.stockReleasedAt !== null,
    ...orderMoneyOf(order),
    customer: {
      name: `${order.firstName} ${order.lastName}`.trim(),
      email: order.email,
      phone: order.phone,
      account: account[0] ?? null,
    },
    shipping: { address: order.address, city: order.city, state: order.state, zipCode: order.zipCode, country: order.country },
    payment: { provider: order.paymentProvider, reference: order.paymentReference, sessionId: order.paymentSessionId },
    lines,
    events: events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    moves: allowedMoves(order.status),
    refundToConfirm: refund,
  };
}

/** Batches of the filtered orders, newest first, walked by (created_at, id) so a large export never offsets. */
export async function* filteredOrderBatches(db: Db, query: Omit<AdminOrderQuery, "page">, batchSize = 500) {
  let afterId: string | null = null;
  for (;;) {
    // Compared in the database: a JavaScript Date would cut created_at's microseconds and skip rows.
    const cursor: SQL | undefined = afterId
      ? sql`(${orders.createdAt}, ${orders.id}) < (select o.created_at, o.id from ${orders} o where o.id = ${afterId})`
      : undefined;
    const rows = await db
      .select({
        ...listColumns,
        phone: orders.phone,
        ...orderMoneyColumns,
        refundedCents: orders.refundedCents,
        currency: orders.currency,
        address: orders.address,
        city: orders.city,
        state: orders.state,
        zipCode: orders.zipCode,
        country: orders.country,
        paymentReference: orders.paymentReference,
      })
      .from(orders)
      .where(and(whereOf(query), cursor))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(batchSize);
    if (rows.length) yield rows;
    if (rows.length < batchSize) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

/** "Name <email>" of the account a customer filter names, or null when it does not exist. */
export async function getCustomerLabel(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
  return row ? (row.name ? `${row.name} <${row.email}>` : row.email) : null;
}

/** The id of the order an admin URL names (id or order number), or null. */
export async function findOrderId(db: Db, idOrNumber: string): Promise<string | null> {
  const key = orderKey(idOrNumber);
  if (!key) return null;
  const [row] = await db.select({ id: orders.id }).from(orders).where(key);
  return row?.id ?? null;
}
