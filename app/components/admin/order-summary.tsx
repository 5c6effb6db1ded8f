import { Link } from "react-router";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/money";
import { orderMoneyRows, type OrderMoney } from "~/lib/order-money";
import type { AdminOrderLine } from "~/lib/orders-view";

/**
 * The line snapshots taken at purchase (later product edits never change them) and every money
 * line of the quote the order was placed at: subtotal, discount, shipping, tax (always shown
 * here, $0.00 on a shop without tax), total.
 */
export function OrderLines({ lines, totals }: { lines: AdminOrderLine[]; totals: OrderMoney }) {
  return (
    <div className="overflow-x-auto">
      <Table>
        <caption className="sr-only">Items in this order</caption>
        <TableHeader>
          <TableRow>
            <TableHead>Item</TableHead>
            <TableHead className="text-right">Unit price</TableHead>
            <TableHead className="text-right">Quantity</TableHead>
            <TableHead className="text-right">Line total</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {lines.map((l) => (
            <TableRow key={l.id}>
              <TableCell className="min-w-40 whitespace-normal">
                {l.productId ? (
                  <Link to={`/product/${l.productId}`} className="hover:underline" target="_blank" rel="noreferrer">
                    {l.name}
                  </Link>
                ) : (
                  l.name
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(l.unitPriceCents)}</TableCell>
              <TableCell className="text-right tabular-nums">{l.quantity}</TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(l.lineTotalCents)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          {orderMoneyRows(totals, { alwaysTax: true }).map((row) => (
            <TableRow key={row.key} className={row.key === "total" ? "text-base font-bold" : undefined}>
              <TableCell colSpan={3} className="whitespace-normal" data-testid={`order-${row.key}-label`}>
                {row.label}
              </TableCell>
              <TableCell className="text-right tabular-nums whitespace-nowrap" data-testid={`order-${row.key}`}>
                {row.value}
              </TableCell>
            </TableRow>
          ))}
        </TableFooter>
      </Table>
    </div>
  );
}
