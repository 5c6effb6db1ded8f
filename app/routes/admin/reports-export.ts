import { readDateRange } from "~/lib/date-range";
import { isReportId, reportInfo } from "~/lib/reports-view";
import { refuse } from "~/routes/_edge/errors.server";
import { csvDownload } from "~/routes/_edge/csv-download.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { reportCsvChunks, reportFilename } from "~/server/insight/index.server";
import type { Route } from "./+types/reports-export";

/**
 * A report as a CSV download: `?report=<id>` and the page's date range. An unknown report is not
 * found; a bad range is refused (the page's links always carry a good one), rather than a file
 * for a range nobody asked for.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const id = params.get("report");
  if (!isReportId(id))
    refuse({ kind: "not_found", message: "There is no such report." });
  const info = reportInfo(id);
  const { range, error } = readDateRange(params);
  if (error && info.usesRange)
    refuse({
      kind: "bad_input",
      message: error.replace(/ Showing the last 30 days\.$/, ""),
    });

  return csvDownload(
    reportCsvChunks(getDb(), id, range),
    reportFilename(id, range, info.usesRange),
    {
      msg: "report export failed",
      report: id,
    },
  );
}
