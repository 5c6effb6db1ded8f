/**
 * What the browser sees of orders in the admin: the list, its four figures and one order's page.
 * Plain types, safe to import anywhere; app/server/commerce/orders/admin-orders.server.ts builds these
 * values and is annotated with them. Times are ISO 8601 strings, money integer cents.
 */
import type { OrderMoney } from "./order-money";

export type OrderStatusName = "pending" | "processing" | "shipped" | "completed" | "cancelled";
export type PaymentStatusName = "unpaid" | "paid" | "failed" | "expired" | "refunded" | "partially_refunded";

/** A row of the admin orders table. */
export type AdminOrderRow = {
  id: string;
  orderNumber: string;
  createdAt: string;
  customerName: string;
  email: string;
  itemsCount: number;
  totalAmountCents: number;
  paymentStatus: string;
  status: string;
};

/** One page of the orders table and how many orders match the filter. */
export type AdminOrderList = { total: number; pages: number; orders: AdminOrderRow[] };

/** The cards above the orders table. Revenue counts paid orders that were not cancelled. */
export type AdminOrderStats = {
  totalOrders: number;
  paidOrders: number;
  revenueCents: number;
  pending: number;
  processing: number;
  shipped: number;
};

/** A line as sold (a snapshot: later product edits never change it); no product once it is deleted. */
export type AdminOrderLine = {
  id: string;
  productId: string | null;
  name: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
};

/** A timeline entry: a status or payment change, who made it and when. */
export type AdminOrderEvent = {
  id: string;
  kind: string;
  fromStatus: string | null;
  toStatus: string | null;
  note: string;
  actorLabel: string;
  /** The admin's email when an admin made the change and the account still exists. */
  actorEmail: string | null;
  createdAt: string;
};

/**
 * Everything the admin order page shows, with the quote the order was placed at (OrderMoney:
 * every money line; app/lib/order-money.ts prints them).
 */
export type AdminOrderView = OrderMoney & {
  id: string;
  orderNumber: string;
  status: OrderStatusName;
  paymentStatus: PaymentStatusName;
  /** Sent back with a status change, so a change made meanwhile by someone else is noticed. */
  version: number;
  createdAt: string;
  paidAt: string | null;
  /** The stock the order took was put back (it was cancelled after payment). */
  stockReturned: boolean;
  customer: {
    name: string;
    email: string;
    phone: string;
    /** The account the order was placed with, or null for a guest checkout (or a deleted account). */
    account: { id: string; name: string; email: string } | null;
  };
  shipping: { address: string; city: string; state: string; zipCode: string; country: string };
  payment: { provider: string; reference: string | null; sessionId: string | null };
  lines: AdminOrderLine[];
  events: AdminOrderEvent[];
  /** The statuses the order may move to from here. */
  moves: readonly OrderStatusName[];
  /**
   * A refund recorded for the owner to confirm (a payment that did not match the order's total):
   * its amount, or null for the whole payment. Null when there is none.
   */
  refundToConfirm: { amountCents: number | null } | null;
};
