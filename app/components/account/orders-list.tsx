import { Package } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import type { AccountOrder } from "~/lib/accounts-view";
import { formatMoney } from "~/lib/money";
import { orderMoneyRows } from "~/lib/order-money";
import { OrderStatusBadge } from "./order-status-badge";
import { formatUtcDate } from "~/lib/utc-date";


/**
 * The Orders tab: the person's orders, newest first, or the empty state. Each shows its total and
 * the money lines it was placed at (subtotal, discount, shipping, and tax when there was any).
 */
export function OrdersList({ orders }: { orders: AccountOrder[] }) {
  if (orders.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 py-12 text-center">
        <Package className="size-12 text-muted-foreground" aria-hidden />
        <h3 className="text-lg font-semibold">No orders yet</h3>
        <p className="text-muted-foreground">When you place an order, it will appear here.</p>
        <Button asChild>
          <Link to="/shop">Start Shopping</Link>
        </Button>
      </div>
    );
  }
  return (
    <ul className="grid gap-3" aria-label="Your orders">
      {orders.map((o) => (
        <li key={o.id} className="grid gap-3 rounded-lg border p-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="font-medium break-all">
                <Link to={`/profile/orders/${encodeURIComponent(o.orderNumber)}`} className="hover:underline">
                  Order #{o.orderNumber}
                </Link>
              </p>
              <p className="text-sm text-muted-foreground">
                <time dateTime={o.createdAt}>{formatUtcDate(o.createdAt, "long")}</time>
              </p>
            </div>
            <div className="flex items-center gap-3">
              <span className="font-semibold" data-testid="account-order-total">
                {formatMoney(o.totalAmountCents)}
              </span>
              <OrderStatusBadge status={o.status} />
            </div>
          </div>
          <dl className="grid gap-1 text-sm sm:max-w-sm" aria-label={`Order #${o.orderNumber} amounts`}>
            {orderMoneyRows(o)
              .filter((row) => row.key !== "total")
              .map((row) => (
                <div key={row.key} className="flex justify-between gap-4">
                  <dt className="text-muted-foreground">{row.label}</dt>
                  <dd className="tabular-nums" data-testid={`account-order-${row.key}`}>
                    {row.value}
                  </dd>
                </div>
              ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
