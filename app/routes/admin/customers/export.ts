import { csvDownload } from "~/routes/_edge/csv-download.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { customersCsvChunks, parseCustomerListQuery } from "~/server/people/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/export";

/** The customers the list's search finds (every page), sorted as the list is, as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { q, sort, dir } = parseCustomerListQuery(new URL(request.url));
  // Who exported what kind of list; the search itself may be someone's address, so it stays out of the log.
  logger.info(
    { adminId: admin.id, searched: q !== "", sort, dir },
    "customers export",
  );
  const date = new Date().toISOString().slice(0, 10);
  return csvDownload(
    customersCsvChunks(getDb(), { q, sort, dir }),
    `customers-${date}.csv`,
    { msg: "customers export failed" },
  );
}
