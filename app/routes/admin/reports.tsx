import { Download } from "lucide-react";
import { Link } from "react-router";
import { DateRangePicker, describeDays } from "~/components/admin/date-range-picker";
import { ReportTableView } from "~/components/admin/report-table";
import { Button } from "~/components/ui/button";
import { readDateRange, rangeSearch, type DateRange } from "~/lib/date-range";
import { DEFAULT_REPORT, isReportId, reportInfo, REPORTS, type ReportId } from "~/lib/reports-view";
import { cn } from "~/lib/utils";
import { refuse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { reportTable } from "~/server/insight/index.server";
import type { Route } from "./+types/reports";

export const meta: Route.MetaFunction = () => [
  { title: "Reports — Admin" },
  { name: "description", content: "Sales, discounts and tax, stock on hand and the newsletter list, on the page and as CSV." },
  { name: "robots", content: "noindex" },
];

/** `?report=<id>` picks the report (an unknown one is not found); the range as on the Analytics page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const asked = params.get("report");
  if (asked !== null && !isReportId(asked)) refuse({ kind: "not_found", message: "There is no such report." });
  const report: ReportId = asked ?? DEFAULT_REPORT;
  const { range, error } = readDateRange(params);
  const table = await reportTable(getDb(), report, range);
  return { report, range, rangeError: error, table };
}

const reportHref = (id: ReportId, range: DateRange) => `/admin/reports?report=${id}&${rangeSearch(range)}`;
const csvHref = (id: ReportId, range: DateRange) => `/admin/reports/export?report=${id}&${rangeSearch(range)}`;

export default function ReportsPage({ loaderData }: Route.ComponentProps) {
  const { report, range, rangeError, table } = loaderData;
  const info = reportInfo(report);
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Reports</h1>
        <p className="text-muted-foreground">Pick a report and a date range; see its first rows here or download it whole as CSV.</p>
      </div>

      <DateRangePicker range={range} error={rangeError} hidden={{ report }} />

      <nav aria-label="Reports">
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {REPORTS.map((r) => {
            const current = r.id === report;
            return (
              <li
                key={r.id}
                className={cn("flex flex-col gap-2 rounded-lg border p-3", current && "border-primary bg-primary/5 ring-1 ring-primary")}
              >
                <Link
                  to={reportHref(r.id, range)}
                  aria-current={current ? "page" : undefined}
                  className="font-medium text-primary hover:underline"
                  preventScrollReset
                >
                  {r.title}
                  {current ? <span className="sr-only"> (shown below)</span> : null}
                </Link>
                <p className="flex-1 text-sm text-muted-foreground">{r.description}</p>
                <Button asChild variant="outline" size="sm" className="self-start">
                  <a href={csvHref(r.id, range)} download aria-label={`Download CSV: ${r.title}`}>
                    <Download aria-hidden="true" /> Download CSV
                  </a>
                </Button>
              </li>
            );
          })}
        </ul>
      </nav>

      <section aria-labelledby="report-heading" className="grid gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="report-heading" className="text-xl font-semibold">
              {info.title}
            </h2>
            <p className="text-sm text-muted-foreground">
              {info.usesRange ? `${describeDays(range)} (UTC days)` : "The shop as it is now: the date range does not apply."}
            </p>
          </div>
          <Button asChild>
            <a href={csvHref(report, range)} download>
              <Download aria-hidden="true" /> Download CSV
            </a>
          </Button>
        </div>
        <ReportTableView title={info.title} table={table} />
      </section>
    </div>
  );
}
