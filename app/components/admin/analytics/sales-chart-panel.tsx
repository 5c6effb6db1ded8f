import { lazy, Suspense, useEffect, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { SalesChart } from "~/lib/analytics-view";
import { formatMoney } from "~/lib/money";

// recharts is fetched only when this panel mounts in the browser: not in the storefront's nor
// in the admin's first load. The table below carries the same figures for screen readers, for
// browsers without JavaScript and for anyone who wants the numbers.
const Chart = lazy(() => import("./sales-chart"));

const PER: Record<SalesChart["bucket"], string> = { day: "day", week: "week", month: "month" };
const number = new Intl.NumberFormat("en-US");

export function SalesChartPanel({ chart, rangeLabel }: { chart: SalesChart; rangeLabel: string }) {
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  const empty = chart.points.every((p) => p.orders === 0 && p.revenueCents === 0 && p.refundedCents === 0);
  const title = `Sales, refunds and paid orders per ${PER[chart.bucket]}`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id="sales-chart-heading">{title}</h2>
        </CardTitle>
        <CardDescription>
          {rangeLabel}. Bars: gross sales and refunds, each refund on the day it went back (left axis). Solid line: net
          sales (left axis). Dashed line with dots: paid orders (right axis).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {empty ? (
          <p className="rounded-lg border p-8 text-center text-muted-foreground">
            No paid orders or refunds in this range, so there is nothing to chart yet.
          </p>
        ) : (
          <>
            <div
              role="img"
              aria-label={`Chart of ${title.toLowerCase()}, ${rangeLabel}. The table "Chart figures" below lists the same figures.`}
              className="h-80 w-full"
              data-testid="sales-chart"
            >
              {inBrowser ? (
                <Suspense fallback={<Skeleton className="h-80 w-full" />}>
                  <Chart points={chart.points} />
                </Suspense>
              ) : (
                <Skeleton className="h-80 w-full" />
              )}
            </div>
            <details className="rounded-md border px-3 py-2">
              <summary className="cursor-pointer text-sm font-medium">Chart figures as a table</summary>
              <Table className="mt-2">
                <caption className="sr-only">Chart figures: {title.toLowerCase()}, {rangeLabel}</caption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">{chart.bucket === "day" ? "Day" : chart.bucket === "week" ? "Week" : "Month"}</TableHead>
                    <TableHead scope="col" className="text-right">
                      Gross sales
                    </TableHead>
                    <TableHead scope="col" className="text-right">
                      Refunds
                    </TableHead>
                    <TableHead scope="col" className="text-right">
                      Net sales
                    </TableHead>
                    <TableHead scope="col" className="text-right">
                      Paid orders
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {chart.points.map((p) => (
                    <TableRow key={p.start}>
                      <TableHead scope="row" className="font-normal">
                        {p.label}
                      </TableHead>
                      <TableCell className="text-right tabular-nums">{formatMoney(p.revenueCents)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatMoney(p.refundedCents)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatMoney(p.netCents)}</TableCell>
                      <TableCell className="text-right tabular-nums">{number.format(p.orders)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </details>
          </>
        )}
      </CardContent>
    </Card>
  );
}
