import { DomainError, type Db } from "../../platform/index.server";
import type { Providers } from "./providers.server";

/**
 * Partial refunds on the order ledger (docs/money-path.md, "The walk of a refund"): the owner
 * gives back some units of some lines, some shipping and an adjustment; each refund is a ledger
 * row with its own provider call (idempotency key per row), decided in one transaction with the
 * order locked and its version checked.
 */

export type RefundLineInput = { orderItemId: string; quantity: number; restock: boolean };

export type RefundActor = { actorUserId: string | null; actorLabel: string };

export type RefundInput = {
  orderId: string;
  /** orders.version the admin saw; another one is refused as a conflict. */
  expectedVersion: number;
  /** Lines with quantity 0 may be left out. */
  lines: RefundLineInput[];
  /** Shipping to refund (0..what is left of it). */
  shippingCents: number;
  /** An extra amount (goodwill), >= 0; needs `adjustmentReason` when above zero. */
  adjustmentCents: number;
  adjustmentReason?: string | null;
  reason?: string | null;
  /** A refund made for a return: its stock was settled when the return was received, so none moves here. */
  returnId?: string | null;
  actor: RefundActor;
};

/** What the refund dialog shows, and what caps a refund (pending, succeeded and open failed refunds count). */
export type RefundableOrder = {
  orderId: string;
  orderNumber: string;
  version: number;
  currency: string;
  paymentState: string;
  lines: {
    orderItemId: string;
    name: string;
    quantity: number;
    refundedQuantity: number;
    refundableQuantity: number;
    paidCents: number;
    refundedCents: number;
    refundableCents: number;
    stockTracked: boolean;
  }[];
  shipping: { paidCents: number; refundedCents: number; refundableCents: number };
  paidCents: number;
  refundedCents: number;
  maxRefundCents: number;
};

export type RefundOutcome = { movementId: string; amountCents: number; state: "pending" | "succeeded" | "failed" };

export const ORDER_CHANGED = "This order changed since you opened it. Review it and try again.";

/** A refund refused: the message shown, beside `field` when it is about one. */
export class RefundError extends DomainError<"bad_input" | "not_found" | "conflict" | "rejected"> {
  constructor(
    message: string,
    kind: "bad_input" | "not_found" | "conflict" | "rejected" = "bad_input",
    readonly field?: string,
  ) {
    super(message, kind);
    this.name = "RefundError";
  }
}

/** The order's lines, shipping and totals as a refund sees them; null when there is no such order. */
export async function refundableFor(db: Db, orderId: string): Promise<RefundableOrder | null> {
  void db;
  void orderId;
  throw new Error("refundableFor: not built yet");
}

/** Decides a refund (one transaction), then asks the provider for it at once. */
export async function refundOrder(db: Db, input: RefundInput, opts: { providers?: Providers } = {}): Promise<RefundOutcome> {
  void db;
  void input;
  void opts;
  throw new Error("refundOrder: not built yet");
}

/** The owner's 'Retry' of a refund the provider refused. */
export async function retryFailedRefund(db: Db, movementId: string, actor: RefundActor, opts: { providers?: Providers } = {}): Promise<RefundOutcome> {
  void db;
  void movementId;
  void actor;
  void opts;
  throw new Error("retryFailedRefund: not built yet");
}

/** The owner's 'Close': the refused refund is given up and no longer counts as refunded. */
export async function closeFailedRefund(db: Db, movementId: string, actor: RefundActor): Promise<void> {
  void db;
  void movementId;
  void actor;
  throw new Error("closeFailedRefund: not built yet");
}

export type StockMove = {
  id: string;
  orderItemId: string;
  name: string;
  quantity: number;
  kind: "restocked" | "written_off";
  source: "refund" | "return";
  movementId: string | null;
  returnId: string | null;
  createdAt: Date;
};

/**
 * In the returns flow's 'received' transaction: restocked units go back to the catalogue, the
 * others are written off, each recorded once (a second call for the same return and lines moves nothing).
 */
export async function settleReturnedStock(
  tx: Db,
  input: { orderId: string; returnId: string; lines: RefundLineInput[]; actor: RefundActor },
): Promise<void> {
  void tx;
  void input;
  throw new Error("settleReturnedStock: not built yet");
}

/** Every restocked or written-off quantity of an order, oldest first (the admin order page). */
export async function orderStockMoves(db: Db, orderId: string): Promise<StockMove[]> {
  void db;
  void orderId;
  throw new Error("orderStockMoves: not built yet");
}
