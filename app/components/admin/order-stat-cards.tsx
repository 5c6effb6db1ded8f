import { Clock, DollarSign, ShoppingCart, Truck } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatMoney } from "~/lib/money";
import type { AdminOrderStats } from "~/lib/orders-view";

const number = new Intl.NumberFormat("en-US");

/** Four cards where the original product had a static mock, computed from the orders table (docs/rules/admin.md, Orders). */
export function OrderStatCards({ stats }: { stats: AdminOrderStats }) {
  const cards = [
    { title: "Total Orders", value: number.format(stats.totalOrders), note: `${number.format(stats.paidOrders)} paid`, icon: ShoppingCart, to: "/admin/orders" },
    { title: "Revenue", value: formatMoney(stats.revenueCents), note: "From paid orders, cancellations excluded", icon: DollarSign, to: null },
    { title: "Pending", value: number.format(stats.pending), note: `Awaiting payment · ${number.format(stats.processing)} to ship`, icon: Clock, to: "/admin/orders?status=pending" },
    { title: "Shipped", value: number.format(stats.shipped), note: "On their way", icon: Truck, to: "/admin/orders?status=shipped" },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cards.map((c) => (
        <Card key={c.title} className="gap-2">
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle className="text-sm font-medium">
              {c.to ? (
                <Link to={c.to} className="hover:underline">
                  {c.title}
                </Link>
              ) : (
                c.title
              )}
            </CardTitle>
            <c.icon className="size-4 text-muted-foreground" aria-hidden="true" />
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold" data-testid={`order-stat-${c.title}`}>
              {c.value}
            </p>
            <p className="text-xs text-muted-foreground">{c.note}</p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
