import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { CUSTOMER_COLUMNS, customerListSearch, type CustomerListQuery, type CustomerRow } from "~/lib/customers-view";
import { formatMoney } from "~/lib/money";
import { cn } from "~/lib/utils";
import { UtcTime } from "./utc-time";

/**
 * The customers of one page. Each column header is a link that sorts by it (a second click
 * reverses the direction) and says the current order with aria-sort; the name opens the customer.
 */
export function CustomerTable({ rows, query, caption }: { rows: CustomerRow[]; query: CustomerListQuery; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table>
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            {CUSTOMER_COLUMNS.map((col) => {
              const active = query.sort === col.sort;
              const dir = active ? (query.dir === "asc" ? "desc" : "asc") : col.firstDir;
              const Icon = !active ? ArrowUpDown : query.dir === "asc" ? ArrowUp : ArrowDown;
              return (
                <TableHead
                  key={col.sort}
                  aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : "none"}
                  className={cn(col.numeric && "text-right")}
                >
                  <Link
                    to={`/admin/customers${customerListSearch({ q: query.q, sort: col.sort, dir })}`}
                    className={cn(
                      "inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                      active && "text-foreground",
                    )}
                    data-sort={col.sort}
                  >
                    {col.label}
                    <Icon aria-hidden="true" className={cn("size-3.5", !active && "opacity-40")} />
                  </Link>
                </TableHead>
              );
            })}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((c) => (
            <TableRow key={c.id}>
              <TableCell className="max-w-56 font-medium">
                <Link to={`/admin/customers/${c.id}`} className="block truncate text-primary hover:underline">
                  {c.name || <span className="italic">No name</span>}
                  <span className="sr-only">{c.name ? "" : ` (${c.email})`}</span>
                </Link>
              </TableCell>
              <TableCell className="max-w-64">
                <span className="block truncate">{c.email}</span>
              </TableCell>
              <TableCell>
                <Badge variant={c.hasAccount ? "info" : "neutral"}>{c.hasAccount ? "Account" : "Guest"}</Badge>
              </TableCell>
              <TableCell className="text-right tabular-nums">{c.ordersCount}</TableCell>
              <TableCell className="text-right font-medium tabular-nums">{formatMoney(c.spentCents)}</TableCell>
              <TableCell className="whitespace-nowrap">
                {c.lastOrderAt ? <UtcTime iso={c.lastOrderAt} /> : <span className="text-muted-foreground">None</span>}
              </TableCell>
              <TableCell>
                {c.subscribed ? <Badge variant="success">Subscribed</Badge> : <span className="text-muted-foreground">No</span>}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
