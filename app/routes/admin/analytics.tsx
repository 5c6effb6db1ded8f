import { FigureCards } from "~/components/admin/analytics/figure-cards";
import { Funnel } from "~/components/admin/analytics/funnel";
import { SearchTables, TopSellers } from "~/components/admin/analytics/ranking-tables";
import { SalesChartPanel } from "~/components/admin/analytics/sales-chart-panel";
import { DateRangePicker, describeDays } from "~/components/admin/date-range-picker";
import { readDateRange } from "~/lib/date-range";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { analyticsView } from "~/server/insight/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/analytics";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  // A bad range is answered with a message and the default range, never an error page.
  const { range, error } = readDateRange(new URL(request.url).searchParams);
  const view = await analyticsView(getDb(), range);
  return { error, view };
}

export const meta: Route.MetaFunction = () => [
  { title: "Analytics — Admin" },
  { name: "description", content: "Sales, customers, the funnel and searches for a date range." },
  { name: "robots", content: "noindex" },
];

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { error, view } = loaderData;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Analytics</h1>
        <p className="text-muted-foreground">
          What sells, who buys and where shoppers give up, compared with the period just before.
        </p>
      </div>
      <DateRangePicker range={view.range} error={error} />
      <FigureCards figures={view.figures} />
      <SalesChartPanel chart={view.chart} rangeLabel={describeDays(view.range)} />
      <TopSellers products={view.topProducts} categories={view.topCategories} />
      <Funnel steps={view.funnel} />
      <SearchTables top={view.searches.top} empty={view.searches.empty} />
    </div>
  );
}
