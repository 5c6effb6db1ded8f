import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { SearchTermCount, TopCategory, TopProduct } from "~/lib/analytics-view";
import { formatMoney } from "~/lib/money";

const number = new Intl.NumberFormat("en-US");

type Column<T> = { header: string; cell: (row: T) => string; numeric?: boolean };

/** A titled card holding a ranked table, or a sentence when the range has no rows. */
export function RankingCard<T>({
  title,
  description,
  rows,
  columns,
  rowKey,
  empty,
  testId,
}: {
  title: string;
  description?: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
  testId?: string;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle>
          <h3>{title}</h3>
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <Table>
            <caption className="sr-only">{title}</caption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col" className="w-8">
                  #
                </TableHead>
                {columns.map((c) => (
                  <TableHead key={c.header} scope="col" className={c.numeric ? "text-right" : undefined}>
                    {c.header}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row, i) => (
                <TableRow key={rowKey(row)}>
                  <TableCell className="text-muted-foreground tabular-nums">{i + 1}</TableCell>
                  {columns.map((c, j) =>
                    j === 0 ? (
                      <TableHead key={c.header} scope="row" className="font-normal whitespace-normal">
                        {c.cell(row)}
                      </TableHead>
                    ) : (
                      <TableCell key={c.header} className={c.numeric ? "text-right tabular-nums" : undefined}>
                        {c.cell(row)}
                      </TableCell>
                    ),
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

const productColumns: Column<TopProduct>[] = [
  { header: "Product", cell: (p) => p.name },
  { header: "Category", cell: (p) => p.category },
  { header: "Units", cell: (p) => number.format(p.units), numeric: true },
  { header: "Revenue", cell: (p) => formatMoney(p.revenueCents), numeric: true },
];

const categoryColumns: Column<TopCategory>[] = [
  { header: "Category", cell: (c) => c.category },
  { header: "Units", cell: (c) => number.format(c.units), numeric: true },
  { header: "Revenue", cell: (c) => formatMoney(c.revenueCents), numeric: true },
];

const REVENUE_NOTE = "Revenue: line totals less their share of discounts (before shipping and tax).";

export function TopSellers({
  products,
  categories,
}: {
  products: { byRevenue: TopProduct[]; byUnits: TopProduct[] };
  categories: { byRevenue: TopCategory[]; byUnits: TopCategory[] };
}) {
  const noSales = "Nothing sold in this range.";
  return (
    <section aria-labelledby="top-sellers-heading" className="grid gap-4">
      <div>
        <h2 id="top-sellers-heading" className="text-lg font-semibold">
          Top products and categories
        </h2>
        <p className="text-sm text-muted-foreground">{REVENUE_NOTE}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <RankingCard title="Top products by revenue" rows={products.byRevenue} columns={productColumns} rowKey={(p) => p.productId} empty={noSales} testId="top-products-revenue" />
        <RankingCard title="Top products by units" rows={products.byUnits} columns={productColumns} rowKey={(p) => p.productId} empty={noSales} testId="top-products-units" />
        <RankingCard title="Top categories by revenue" rows={categories.byRevenue} columns={categoryColumns} rowKey={(c) => c.category} empty={noSales} testId="top-categories-revenue" />
        <RankingCard title="Top categories by units" rows={categories.byUnits} columns={categoryColumns} rowKey={(c) => c.category} empty={noSales} testId="top-categories-units" />
      </div>
    </section>
  );
}

export function SearchTables({ top, empty }: { top: SearchTermCount[]; empty: SearchTermCount[] }) {
  return (
    <section aria-labelledby="searches-heading" className="grid gap-4">
      <div>
        <h2 id="searches-heading" className="text-lg font-semibold">
          Searches
        </h2>
        <p className="text-sm text-muted-foreground">What shoppers typed in the shop's search (lower-cased), and what it could not find.</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <RankingCard
          title="Top searches"
          rows={top}
          columns={[
            { header: "Term", cell: (s) => s.term },
            { header: "Searches", cell: (s) => number.format(s.count), numeric: true },
          ]}
          rowKey={(s) => s.term}
          empty="No searches in this range."
          testId="top-searches"
        />
        <RankingCard
          title="Searches that found nothing"
          description="Terms shoppers looked for that matched no product: what they want and the shop lacks."
          rows={empty}
          columns={[
            { header: "Term", cell: (s) => s.term },
            { header: "Searches with no results", cell: (s) => number.format(s.count), numeric: true },
          ]}
          rowKey={(s) => s.term}
          empty="Every search in this range found something."
          testId="empty-searches"
        />
      </div>
    </section>
  );
}
