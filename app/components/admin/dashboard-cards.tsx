import { BarChart3, DollarSign, Package, PackageCheck, Plus, ShoppingCart, Upload } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import type { DashboardActivity, DashboardStats } from "~/lib/dashboard-view";
import { formatMoney } from "~/lib/money";

const number = new Intl.NumberFormat("en-US");

/** The change figures versus last month are fixed (docs/rules/admin.md, Dashboard). */
function cardsFor(stats: DashboardStats) {
  return [
    { title: "Total Products", value: number.format(stats.totalProducts), change: "+12%", icon: Package },
    { title: "Active Products", value: number.format(stats.activeProducts), change: "+8%", icon: PackageCheck },
    { title: "Total Orders", value: number.format(stats.totalOrders), change: "+23%", icon: ShoppingCart },
    { title: "Revenue", value: formatMoney(stats.revenueCents), change: "+15%", icon: DollarSign },
  ];
}

export function StatCards({ stats }: { stats: DashboardStats | null }) {
  if (!stats) {
    return (
      <p role="alert" className="rounded-md border border-destructive/40 p-4 text-sm text-destructive">
        The figures could not be loaded. Reload the page to try again.
      </p>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cardsFor(stats).map((c) => (
        <Card key={c.title} className="gap-2">
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle className="text-sm font-medium">{c.title}</CardTitle>
            <c.icon className="size-4 text-muted-foreground" aria-hidden="true" />
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold" data-testid={`stat-${c.title}`}>
              {c.value}
            </p>
            <p className="text-xs text-muted-foreground">
              <span className="font-medium text-success">{c.change}</span> from last month
            </p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

export function StatCardsSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy="true" aria-label="Loading statistics">
      {Array.from({ length: 4 }, (_, i) => (
        <Card key={i} className="gap-2" data-testid="stat-skeleton">
          <CardHeader>
            <Skeleton className="h-4 w-24" />
          </CardHeader>
          <CardContent className="space-y-2">
            <Skeleton className="h-8 w-20" />
            <Skeleton className="h-3 w-28" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

const when = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });

export function RecentActivity({ items }: { items: DashboardActivity[] | null }) {
  return (
    <Card className="lg:col-span-4">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription>New products and paid orders.</CardDescription>
      </CardHeader>
      <CardContent>
        {items === null ? (
          <div className="space-y-3" aria-busy="true">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No activity yet.</p>
        ) : (
          <ul className="space-y-4">
            {items.map((item, i) => (
              <li key={i} className="flex items-start gap-3">
                <span
                  className={`mt-1.5 size-2 shrink-0 rounded-full ${item.kind === "order" ? "bg-success" : "bg-primary"}`}
                  aria-hidden="true"
                />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{item.title}</p>
                  <p className="text-xs text-muted-foreground">
                    {item.detail} · <time dateTime={item.at}>{when.format(new Date(item.at))} UTC</time>
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export function QuickActions() {
  return (
    <Card className="lg:col-span-3">
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
        <CardDescription>Common tasks, one click away.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Button asChild variant="outline" className="justify-start">
          <Link to="/admin/products?new=1">
            <Plus aria-hidden="true" /> Add New Product
          </Link>
        </Button>
        <Button asChild variant="outline" className="justify-start">
          <Link to="/admin/products?tab=import">
            <Upload aria-hidden="true" /> Import Products
          </Link>
        </Button>
        <Button asChild variant="outline" className="justify-start">
          <Link to="/admin/analytics">
            <BarChart3 aria-hidden="true" /> View Analytics
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
