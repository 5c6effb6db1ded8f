import type { OrderMoney } from "~/lib/order-money";
import { orders } from "../../platform/index.server";

/** The columns of the quote an order was placed at (OrderMoney, app/lib/order-money.ts), for a select. */
export const orderMoneyColumns = {
  subtotalCents: orders.subtotalCents,
  discountCents: orders.discountCents,
  discountCode: orders.discountCode,
  discountKind: orders.discountKind,
  shippingName: orders.shippingName,
  shippingCents: orders.shippingCents,
  taxName: orders.taxName,
  taxRateBasisPoints: orders.taxRateBasisPoints,
  pricesIncludeTax: orders.pricesIncludeTax,
  taxCents: orders.taxCents,
  totalAmountCents: orders.totalAmountCents,
} satisfies Record<keyof OrderMoney, unknown>;

const ORDER_MONEY_KEYS = Object.keys(orderMoneyColumns) as (keyof OrderMoney)[];

/** The quote alone, out of an order row read whole (nothing else of the row comes along). */
export function orderMoneyOf(order: OrderMoney): OrderMoney {
  return Object.fromEntries(ORDER_MONEY_KEYS.map((key) => [key, order[key]])) as OrderMoney;
}
