import { Link } from "react-router";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/money";
import type { AdminOrderLine, AdminOrderView } from "~/lib/orders-view";

type Totals = Pick<AdminOrderView, "subtotalCents" | "shippingCents" | "taxCents" | "totalAmountCents">;

/** The line snapshots taken at purchase (later product edits never change them) and the totals. */
export function OrderLines({ lines, totals }: { lines: AdminOrderLine[]; totals: Totals }) {
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
          <TableRow>
            <TableCell colSpan={3}>Subtotal</TableCell>
            <TableCell className="text-right tabular-nums" data-testid="order-subtotal">
              {formatMoney(totals.subtotalCents)}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell colSpan={3}>Shipping</TableCell>
            <TableCell className="text-right" data-testid="order-shipping">
              {totals.shippingCents === 0 ? "Free" : formatMoney(totals.shippingCents)}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell colSpan={3}>Tax</TableCell>
            <TableCell className="text-right tabular-nums" data-testid="order-tax">
              {formatMoney(totals.taxCents)}
            </TableCell>
          </TableRow>
          <TableRow className="text-base font-bold">
            <TableCell colSpan={3}>Total</TableCell>
            <TableCell className="text-right tabular-nums" data-testid="order-total">
              {formatMoney(totals.totalAmountCents)}
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </div>
  );
}
