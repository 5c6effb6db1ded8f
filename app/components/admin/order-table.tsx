import { Link } from "react-router";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/money";
import type { AdminOrderRow } from "~/lib/orders-view";
import { AdminOrderStatusBadge, PaymentStatusBadge } from "./order-status-badge";
import { UtcTime } from "./utc-time";

/** The orders of one page, newest first; the order number opens the order. */
export function OrderTable({ orders, caption }: { orders: AdminOrderRow[]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table>
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            <TableHead>Order</TableHead>
            <TableHead>Date (UTC)</TableHead>
            <TableHead>Customer</TableHead>
            <TableHead className="text-right">Items</TableHead>
            <TableHead className="text-right">Total</TableHead>
            <TableHead>Payment</TableHead>
            <TableHead>Status</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {orders.map((o) => (
            <TableRow key={o.id}>
              <TableCell className="font-medium whitespace-nowrap">
                <Link to={`/admin/orders/${o.id}`} className="text-primary hover:underline">
                  {o.orderNumber}
                </Link>
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <UtcTime iso={o.createdAt} />
              </TableCell>
              <TableCell className="max-w-56">
                <span className="block truncate">{o.customerName}</span>
                <span className="block truncate text-xs text-muted-foreground">{o.email}</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">{o.itemsCount}</TableCell>
              <TableCell className="text-right font-medium tabular-nums">{formatMoney(o.totalAmountCents)}</TableCell>
              <TableCell>
                <PaymentStatusBadge status={o.paymentStatus} />
              </TableCell>
              <TableCell>
                <AdminOrderStatusBadge status={o.status} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
