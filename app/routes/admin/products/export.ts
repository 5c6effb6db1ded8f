import { csvDownload } from "~/routes/_edge/csv-download.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { productsCsvChunks, productsExportFilename } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/export";

/** The products as a CSV the import reads back, each stock with the time it was read. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return csvDownload(productsCsvChunks(getDb()), productsExportFilename(), { msg: "products export failed", admin: admin.id });
}
