import { csvCell } from "~/lib/csv";
import { taxLabel } from "~/lib/pricing-view";
import type { Db } from "../../platform/index.server";
import { filteredOrderBatches, type AdminOrderQuery } from "./admin-orders.server";

const HEADER = [
  "order_number",
  "created_at",
  "status",
  "payment_status",
  "first_name",
  "last_name",
  "email",
  "phone",
  "items",
  "subtotal",
  "discount",
  "discount_code",
  "shipping_name",
  "shipping",
  "tax_name",
  "tax",
  "total",
  "refunded",
  "net",
  "currency",
  "address",
  "city",
  "state",
  "zip_code",
  "country",
  "payment_reference",
];

/**
 * Dollars with 2 decimals and no $ sign, so a spreadsheet reads the cell as a number. The money
 * columns are the order's quote: discount is the amount taken off (positive), tax_name its label
 * ('VAT 20% (included)': a tax included in the prices is not added to the total); refunded is what
 * the order ledger gave back of the total, net the total less it.
 */
const amount = (cents: number) => (cents / 100).toFixed(2);

/**
 * The filtered orders as CSV text, one chunk per batch, newest first. Every cell is quoted and a
 * cell starting with = + - @ gets a leading ' (csvCell), so a name like "=HYPERLINK(…)" typed at
 * checkout never runs as a formula in the admin's spreadsheet.
 */
export async function* ordersCsvChunks(db: Db, query: Omit<AdminOrderQuery, "page">): AsyncGenerator<string> {
  yield `${HEADER.join(",")}\r\n`;
  for await (const rows of filteredOrderBatches(db, query)) {
    yield rows
      .map((r) =>
        [
          r.orderNumber,
          r.createdAt.toISOString(),
          r.status,
          r.paymentStatus,
          r.firstName,
          r.lastName,
          r.email,
          r.phone,
          String(r.itemsCount),
          amount(r.subtotalCents),
          amount(r.discountCents),
          r.discountCode ?? "",
          r.shippingName,
          amount(r.shippingCents),
          taxLabel({ name: r.taxName, rateBasisPoints: r.taxRateBasisPoints, included: r.pricesIncludeTax, amountCents: r.taxCents }),
          amount(r.taxCents),
          amount(r.totalAmountCents),
          amount(r.refundedCents),
          amount(r.totalAmountCents - r.refundedCents),
          r.currency.toUpperCase(),
          r.address,
          r.city,
          r.state,
          r.zipCode,
          r.country,
          r.paymentReference ?? "",
        ]
          .map(csvCell)
          .join(",") + "\r\n",
      )
      .join("");
  }
}
