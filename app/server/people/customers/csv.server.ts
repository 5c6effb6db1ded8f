import { csvCell } from "~/lib/csv";
import type { CustomerListQuery } from "~/lib/customers-view";
import type { Db } from "../../platform/index.server";
import { customerBatches } from "./list.server";

const HEADER = ["name", "email", "type", "orders", "total_spent", "last_order_at", "newsletter", "first_order_at", "customer_since"];

/** Dollars with 2 decimals and no $ sign, so a spreadsheet reads the cell as a number. */
const amount = (cents: number) => (cents / 100).toFixed(2);

/**
 * The customers the list's search finds, in the list's order, as CSV text: one chunk per batch.
 * Every cell is quoted and one starting with = + - @ gets a leading ' (csvCell), so a name typed
 * at checkout such as "=HYPERLINK(…)" never runs as a formula in the admin's spreadsheet.
 */
export async function* customersCsvChunks(db: Db, query: Pick<CustomerListQuery, "q" | "sort" | "dir">): AsyncGenerator<string> {
  yield `${HEADER.join(",")}\r\n`;
  for await (const rows of customerBatches(db, query)) {
    yield rows
      .map(
        (r) =>
          [
            r.name,
            r.email,
            r.hasAccount ? "account" : "guest",
            String(r.ordersCount),
            amount(r.spentCents),
            r.lastOrderAt ?? "",
            r.subscribed ? "subscribed" : "",
            r.firstOrderAt ?? "",
            r.createdAt,
          ]
            .map(csvCell)
            .join(",") + "\r\n",
      )
      .join("");
  }
}
