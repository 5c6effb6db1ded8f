import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { addDays, parseDay, readDateRange, type DayRange } from "~/lib/date-range";
import { DASHBOARD_DAYS, type DashboardActivity, type DashboardStats, type PeriodFigure } from "~/lib/dashboard-view";
import { formatMoney } from "~/lib/money";
import { netSalesTotals } from "../analytics/sales.server";
import { contactMessages, type Db, jobs, orders, products } from "../../platform/index.server";

/**
 * The dashboard's figures (docs/rules/analytics.md): every one is read through an index or a
 * roll-up, so the page stays fast on a shop of 100,000 products and 500,000 orders. Orders come
 * from the sales roll-up (orders that count, by the UTC day they were paid); revenue is net sales:
 * their gross less the ledger's refunds of them, each on the day it succeeded.
 */

/** The last 30 UTC days (today included) and the 30 before them. */
export function dashboardPeriods(now = new Date()) {
  const { range } = readDateRange(new URLSearchParams({ range: `${DASHBOARD_DAYS}d` }), now);
  return { current: range as DayRange, previous: range.previous };
}

/** From the first day the shop could have sold anything to today: the roll-up's all-time sums. */
function allTime(end: string): DayRange {
  const start = "2000-01-01";
  return { start, end, days: Math.round((parseDay(end)! - parseDay(start)!) / 86_400_000) + 1 };
}

const figure = (current: number, previous: number): PeriodFigure => ({ current, previous });

export async function getDashboardStats(db: Db, now = new Date()): Promise<DashboardStats> {
  const { current, previous } = dashboardPeriods(now);
  const from = `${previous.start}T00:00:00Z`;
  const split = `${current.start}T00:00:00Z`;
  const until = `${addDays(current.end, 1)}T00:00:00Z`;
  const [counts, added, ever, last, before] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        active: sql<number>`(count(*) filter (where ${products.active}))::int`,
      })
      .from(products),
    // Through products_created_idx: only the products of the last 60 days are read.
    db
      .select({
        current: sql<number>`(count(*) filter (where ${products.createdAt} >= ${split}))::int`,
        previous: sql<number>`(count(*) filter (where ${products.createdAt} < ${split}))::int`,
        activeCurrent: sql<number>`(count(*) filter (where ${products.createdAt} >= ${split} and ${products.active}))::int`,
        activePrevious: sql<number>`(count(*) filter (where ${products.createdAt} < ${split} and ${products.active}))::int`,
      })
      .from(products)
      .where(sql`${products.createdAt} >= ${from} and ${products.createdAt} < ${until}`),
    netSalesTotals(db, allTime(current.end)),
    netSalesTotals(db, current),
    netSalesTotals(db, previous),
  ]);
  const c = counts[0];
  const a = added[0];
  return {
    totalProducts: c?.total ?? 0,
    activeProducts: c?.active ?? 0,
    totalOrders: ever.orders,
    revenueCents: ever.netCents,
    productsAdded: figure(a?.current ?? 0, a?.previous ?? 0),
    activeProductsAdded: figure(a?.activeCurrent ?? 0, a?.activePrevious ?? 0),
    orders: figure(last.orders, before.orders),
    revenue: figure(last.netCents, before.netCents),
    period: { start: current.start, end: current.end, previousStart: previous.start, previousEnd: previous.end },
  };
}

type Timed = DashboardActivity & { time: number };

const timed = (item: DashboardActivity, at: Date): Timed => ({ ...item, at: at.toISOString(), time: at.getTime() });

/**
 * What happened lately, newest first: orders paid, contact messages received, products that went
 * low on stock, imports finished and products added. Each source is read newest first through its
 * own index and only `limit` rows of each; the newest `limit` of them all are shown.
 */
export async function getRecentActivity(db: Db, limit = 8): Promise<DashboardActivity[]> {
  const [paid, messages, lowStock, imports, added] = await Promise.all([
    db
      .select({ id: orders.id, number: orders.orderNumber, totalCents: orders.totalAmountCents, at: orders.paidAt })
      .from(orders)
      .where(isNotNull(orders.paidAt))
      .orderBy(sql`${orders.paidAt} desc nulls last`)
      .limit(limit),
    db
      .select({ id: contactMessages.id, name: contactMessages.name, subject: contactMessages.subject, at: contactMessages.createdAt })
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt))
      .limit(limit),
    db
      .select({ name: products.name, sku: products.sku, stock: products.stockQuantity, at: products.lowStockAlertedAt })
      .from(products)
      .where(isNotNull(products.lowStockAlertedAt))
      .orderBy(sql`${products.lowStockAlertedAt} desc nulls last`)
      .limit(limit),
    db
      .select({ status: jobs.status, succeeded: jobs.succeeded, failed: jobs.failed, at: jobs.finishedAt })
      .from(jobs)
      .where(and(eq(jobs.kind, "import"), inArray(jobs.status, ["done", "failed"]), isNotNull(jobs.finishedAt)))
      .orderBy(desc(jobs.createdAt))
      .limit(limit),
    db
      .select({ name: products.name, category: products.category, at: products.createdAt })
      .from(products)
      // "nulls last" as in products_created_idx: the index is walked, not 100,000 rows sorted.
      .orderBy(sql`${products.createdAt} desc nulls last`)
      .limit(limit),
  ]);
  const items: Timed[] = [
    ...paid.map((o) =>
      timed({ kind: "order", title: `Order ${o.number} paid`, detail: formatMoney(o.totalCents), at: "", href: `/admin/orders/${o.id}` }, o.at!),
    ),
    ...messages.map((m) =>
      timed({ kind: "message", title: `Message from ${m.name}`, detail: m.subject, at: "", href: `/admin/inbox/${m.id}` }, m.at),
    ),
    ...lowStock.map((p) =>
      timed(
        {
          kind: "low_stock",
          title: `Low on stock: ${p.name}`,
          detail: p.stock === 1 ? "1 unit left" : `${p.stock} units left`,
          at: "",
          href: `/admin/products?stock=low${p.sku ? `&q=${encodeURIComponent(p.sku)}` : ""}`,
        },
        p.at!,
      ),
    ),
    ...imports.map((j) =>
      timed(
        {
          kind: "import",
          title: j.status === "done" ? "Product import finished" : "Product import failed",
          detail:
            j.status === "done"
              ? `${j.succeeded.toLocaleString("en-US")} imported${j.failed ? `, ${j.failed.toLocaleString("en-US")} rows with errors` : ""}`
              : "See the import tab for what went wrong",
          at: "",
          href: "/admin/products?tab=import",
        },
        j.at!,
      ),
    ),
    ...added.map((p) =>
      timed({ kind: "product", title: `Product added: ${p.name}`, detail: p.category, at: "", href: `/admin/products?q=${encodeURIComponent(p.name.slice(0, 100))}` }, p.at),
    ),
  ];
  return items
    .sort((a, b) => b.time - a.time)
    .slice(0, limit)
    .map(({ time: _time, ...item }) => item);
}
