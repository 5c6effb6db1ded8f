import { formatMoney } from "./money";
import { taxLabel } from "./pricing-view";

/**
 * The quote an order was placed at, as the order stores it (app/server/platform/db/schema/orders.ts): every
 * money line, as charged. An order row has these columns under these names, so it can be passed
 * as it is. Integer cents.
 */
export type OrderMoney = {
  subtotalCents: number;
  discountCents: number;
  discountCode: string | null;
  /** The code's kind when the order was placed; null for no code, or an old order whose code is gone. */
  discountKind: "percent" | "fixed" | "free_shipping" | null;
  shippingName: string;
  shippingCents: number;
  taxName: string;
  taxRateBasisPoints: number;
  pricesIncludeTax: boolean;
  taxCents: number;
  totalAmountCents: number;
};

export type OrderMoneyRow = {
  key: "subtotal" | "discount" | "shipping" | "tax" | "total";
  /** 'Subtotal', 'Discount (SAVE5)', 'Shipping (Express)', 'VAT 20% (included)', 'Total'. */
  label: string;
  /** '$50.00', '−$5.00', 'Free'. */
  value: string;
};

/** A true minus sign: '−$5.00'. */
export const MINUS = "\u2212";

/**
 * The money lines of an order, in the order they add up: subtotal, discount (only when the order
 * had one: what it did, see `discountValue`), shipping with the rate's
 * name ('Free' at $0), tax labelled with its rate (only when it is not zero or a rate was set,
 * unless `alwaysTax`: the pages that always showed a Tax row keep it), total. Where prices
 * include the tax, it is shown as '(included)' and not added again.
 */
export function orderMoneyRows(order: OrderMoney, opts: { alwaysTax?: boolean } = {}): OrderMoneyRow[] {
  const rows: OrderMoneyRow[] = [{ key: "subtotal", label: "Subtotal", value: formatMoney(order.subtotalCents) }];
  if (order.discountCents > 0 || order.discountCode) {
    rows.push({
      key: "discount",
      label: order.discountCode ? `Discount (${order.discountCode})` : "Discount",
      value: discountValue(order),
    });
  }
  rows.push({
    key: "shipping",
    label: order.shippingName ? `Shipping (${order.shippingName})` : "Shipping",
    value: order.shippingCents === 0 ? "Free" : formatMoney(order.shippingCents),
  });
  if (opts.alwaysTax || order.taxCents > 0 || order.taxRateBasisPoints > 0) {
    const label = taxLabel({
      name: order.taxName || "Tax",
      rateBasisPoints: order.taxRateBasisPoints,
      included: order.pricesIncludeTax,
      amountCents: order.taxCents,
    });
    rows.push({ key: "tax", label, value: formatMoney(order.taxCents) });
  }
  rows.push({ key: "total", label: "Total", value: formatMoney(order.totalAmountCents) });
  return rows;
}

/**
 * What the code did: 'Free shipping' only for a free-shipping code that made the shipping free
 * (Standard $0.00); otherwise the amount it took off, even when that is −$0.00 (10% of 4¢, or a
 * free-shipping code beside a dearer rate it does not cover). docs/money-path.md.
 */
function discountValue(order: OrderMoney): string {
  if (order.discountKind === "free_shipping" && order.discountCents === 0 && order.shippingCents === 0) return "Free shipping";
  return `${MINUS}${formatMoney(order.discountCents)}`;
}
