import { csvDownload } from "~/routes/_edge/csv-download.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { ordersCsvChunks, parseAdminOrderQuery } from "~/server/commerce/index.server";
import type { Route } from "./+types/export";

/** The orders the list's filters select (every page), as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { page: _page, ...filters } = parseAdminOrderQuery(
    new URL(request.url),
  );
  const date = new Date().toISOString().slice(0, 10);
  return csvDownload(ordersCsvChunks(getDb(), filters), `orders-${date}.csv`, {
    msg: "orders export failed",
  });
}
