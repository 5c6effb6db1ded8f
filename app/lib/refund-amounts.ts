import { formatMoney } from "./money";

/**
 * The arithmetic of a refund (docs/money-path.md, "Refunds"), pure so the server that caps a
 * refund and the dialog that shows its live total add up alike.
 *
 * A line's paid amount is its total less its discount, plus its tax when the order's prices
 * exclude tax. Refunding k of the r units still refundable, with A cents still refundable on the
 * line, gives round-half-up(A·k/r) — all of A when k = r — so any sequence of partial refunds of
 * a line adds up to exactly its paid amount. The line's tax is shared out the same way, so the tax
 * refunded is the sum of the refunded parts' shares to the cent. Shipping likewise, by cents.
 */

/** round-half-up(a·k/r), exact for any safe integers (the product may pass 2^53). */
export function shareHalfUp(a: number, k: number, r: number): number {
  if (r <= 0 || k <= 0 || a <= 0) return 0;
  if (k >= r) return a;
  const n = BigInt(a) * BigInt(k);
  const d = BigInt(r);
  return Number((n * 2n + d) / (d * 2n));
}

/** An order line as the order stored it. */
export type PaidLine = { lineTotalCents: number; discountCents: number; taxCents: number; quantity: number };

/** What the shopper paid for a line (its tax included whether the prices included it or it was added). */
export function linePaidCents(line: PaidLine, pricesIncludeTax: boolean): number {
  return line.lineTotalCents - line.discountCents + (pricesIncludeTax ? 0 : line.taxCents);
}

/** The shipping the shopper paid, and the tax in it (the order's tax less its lines' tax). */
export function shippingPaid(order: { shippingCents: number; taxCents: number; pricesIncludeTax: boolean }, lines: PaidLine[]) {
  const taxCents = Math.max(0, order.taxCents - lines.reduce((s, l) => s + l.taxCents, 0));
  return { paidCents: order.shippingCents + (order.pricesIncludeTax ? 0 : taxCents), taxCents };
}

/** A line, what it was paid and what of it was refunded already (pending and succeeded refunds). */
export type LineLedger = {
  orderItemId: string;
  name: string;
  quantity: number;
  paidCents: number;
  taxCents: number;
  refundedQuantity: number;
  refundedCents: number;
  refundedTaxCents: number;
};

/** What refunding `k` more units of a line gives back, and the tax in it. */
export function lineShare(line: LineLedger, k: number): { amountCents: number; taxCents: number } {
  const units = line.quantity - line.refundedQuantity;
  return {
    amountCents: shareHalfUp(line.paidCents - line.refundedCents, k, units),
    taxCents: shareHalfUp(line.taxCents - line.refundedTaxCents, k, units),
  };
}

/** The tax in `cents` more of shipping refunded: the shipping tax left, shared by cents. */
export function shippingTaxShare(shipping: { paidCents: number; taxCents: number; refundedCents: number; refundedTaxCents: number }, cents: number): number {
  return shareHalfUp(shipping.taxCents - shipping.refundedTaxCents, cents, shipping.paidCents - shipping.refundedCents);
}

export type RefundRequest = {
  lines: { orderItemId: string; quantity: number; restock: boolean }[];
  shippingCents: number;
  adjustmentCents: number;
};

export type RefundLedger = {
  lines: LineLedger[];
  shipping: { paidCents: number; taxCents: number; refundedCents: number; refundedTaxCents: number };
  /** The order's succeeded charges. */
  paidCents: number;
  /** Pending, succeeded and still open failed refunds. */
  refundedCents: number;
};

export type PlannedLine = { orderItemId: string; quantity: number; amountCents: number; taxCents: number; restock: boolean };
export type RefundPlan = {
  lines: PlannedLine[];
  shippingCents: number;
  shippingTaxCents: number;
  adjustmentCents: number;
  taxCents: number;
  amountCents: number;
};

/** Why a refund cannot be made as asked: the message shown, and the field it is about when there is one. */
export type RefundProblem = { message: string; field?: string };

const atMost = (cents: number) => `You can refund at most ${formatMoney(Math.max(0, cents))}.`;

/** Checks a request against the order's ledger and works out its amounts, or says what is wrong. */
export function planRefund(ledger: RefundLedger, request: RefundRequest): RefundPlan | RefundProblem {
  const byId = new Map(ledger.lines.map((l) => [l.orderItemId, l]));
  const seen = new Set<string>();
  const lines: PlannedLine[] = [];
  for (const [i, asked] of request.lines.entries()) {
    const field = `lines.${i}.quantity`;
    const line = byId.get(asked.orderItemId);
    if (!line) return { message: "This line is not part of the order.", field: `lines.${i}.orderItemId` };
    if (seen.has(line.orderItemId)) return { message: `${line.name} is listed twice.`, field: `lines.${i}.orderItemId` };
    seen.add(line.orderItemId);
    const left = line.quantity - line.refundedQuantity;
    if (!Number.isInteger(asked.quantity) || asked.quantity < 0) {
      return { message: `Enter a whole number of ${line.name} from 0 to ${left}.`, field };
    }
    if (asked.quantity > left) return { message: `You can refund at most ${left} of ${line.name}.`, field };
    if (asked.quantity === 0) continue;
    const share = lineShare(line, asked.quantity);
    lines.push({ orderItemId: line.orderItemId, quantity: asked.quantity, ...share, restock: asked.restock });
  }
  for (const [field, cents] of [
    ["shippingCents", request.shippingCents],
    ["adjustmentCents", request.adjustmentCents],
  ] as const) {
    if (!Number.isSafeInteger(cents) || cents < 0) return { message: "Enter an amount of zero or more.", field };
  }
  const shippingLeft = ledger.shipping.paidCents - ledger.shipping.refundedCents;
  if (request.shippingCents > shippingLeft) return { message: atMost(shippingLeft), field: "shippingCents" };
  const linesCents = lines.reduce((s, l) => s + l.amountCents, 0);
  const amountCents = linesCents + request.shippingCents + request.adjustmentCents;
  if (amountCents === 0) return { message: "Choose something to refund.", field: "lines" };
  const totalLeft = ledger.paidCents - ledger.refundedCents;
  if (amountCents > totalLeft) return { message: atMost(totalLeft) };
  const shippingTaxCents = shippingTaxShare(ledger.shipping, request.shippingCents);
  return {
    lines,
    shippingCents: request.shippingCents,
    shippingTaxCents,
    adjustmentCents: request.adjustmentCents,
    taxCents: lines.reduce((s, l) => s + l.taxCents, 0) + shippingTaxCents,
    amountCents,
  };
}

export const isRefundProblem = (v: RefundPlan | RefundProblem): v is RefundProblem => "message" in v;
