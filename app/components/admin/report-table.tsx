import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/money";
import { PAGE_ROWS, type ReportCell, type ReportColumn, type ReportTable } from "~/lib/reports-view";
import { cn } from "~/lib/utils";

const number = new Intl.NumberFormat("en-US");

function Cell({ column, value, strong }: { column: ReportColumn; value: ReportCell; strong?: boolean }) {
  const numeric = column.kind === "count" || column.kind === "money";
  const text =
    value === null ? null : typeof value === "number" ? (column.kind === "money" ? formatMoney(value) : number.format(value)) : value;
  return (
    <TableCell className={cn(numeric && "text-right tabular-nums", column.kind === "day" && "whitespace-nowrap", strong && "font-semibold")}>
      {text === null && strong ? null : text === null ? (
        <span aria-label="none" className="text-muted-foreground">
          —
        </span>
      ) : (
        text
      )}
    </TableCell>
  );
}

/** A report's first rows as the CSV has them, with its totals row and note. */
export function ReportTableView({ title, table }: { title: string; table: ReportTable }) {
  const numeric = (c: ReportColumn) => c.kind === "count" || c.kind === "money";
  return (
    <div className="grid gap-3">
      {table.rows.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">Nothing to report for this range.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <caption className="sr-only">
              {title}: {table.more ? `the first ${PAGE_ROWS} rows` : "every row"}
            </caption>
            <TableHeader>
              <TableRow>
                {table.columns.map((c) => (
                  <TableHead key={c.key} scope="col" className={cn(numeric(c) && "text-right")}>
                    {c.label}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {table.rows.map((row, i) => (
                <TableRow key={i}>
                  {table.columns.map((c, j) => (
                    <Cell key={c.key} column={c} value={row[j] ?? null} />
                  ))}
                </TableRow>
              ))}
            </TableBody>
            {table.totals ? (
              <TableFooter>
                <TableRow>
                  {table.columns.map((c, j) => (
                    <Cell key={c.key} column={c} value={table.totals![j] ?? null} strong />
                  ))}
                </TableRow>
              </TableFooter>
            ) : null}
          </Table>
        </div>
      )}
      <div className="space-y-1 text-sm text-muted-foreground">
        {table.more ? <p>Showing the first {PAGE_ROWS} rows. The CSV has every row.</p> : null}
        {table.totals ? <p>The totals cover every row of the report{table.more ? ", not only those shown" : ""}; the CSV ends with them.</p> : null}
        {table.note ? <p>{table.note}</p> : null}
      </div>
    </div>
  );
}
