import {
  AlertTriangle,
  BarChart3,
  DollarSign,
  Mail,
  Minus,
  Package,
  PackageCheck,
  PackagePlus,
  Plus,
  ShoppingCart,
  Sparkles,
  TrendingDown,
  TrendingUp,
  Upload,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import {
  describeChange,
  type ActivityKind,
  type ChangeDirection,
  type DashboardActivity,
  type DashboardStats,
  type PeriodFigure,
} from "~/lib/dashboard-view";
import { formatMoney } from "~/lib/money";

const number = new Intl.NumberFormat("en-US");

const DIRECTION_ICONS: Record<ChangeDirection, LucideIcon> = { up: TrendingUp, down: TrendingDown, flat: Minus, new: Sparkles };

/**
 * Each card: the figure, its change against the previous 30 days (an icon and the words, never
 * colour alone), and what the change compares, so "+50%" is never a mystery.
 */
function cardsFor(stats: DashboardStats) {
  const count = (f: PeriodFigure) => `${number.format(f.current)} in the last 30 days, ${number.format(f.previous)} in the 30 before`;
  return [
    {
      title: "Total Products",
      value: number.format(stats.totalProducts),
      change: stats.productsAdded,
      meaning: `Products added: ${count(stats.productsAdded)}.`,
      icon: Package,
    },
    {
      title: "Active Products",
      value: number.format(stats.activeProducts),
      change: stats.activeProductsAdded,
      meaning: `Active products added: ${count(stats.activeProductsAdded)}.`,
      icon: PackageCheck,
    },
    {
      title: "Total Orders",
      value: number.format(stats.totalOrders),
      change: stats.orders,
      meaning: `Orders paid: ${count(stats.orders)}.`,
      icon: ShoppingCart,
    },
    {
      title: "Revenue",
      value: formatMoney(stats.revenueCents),
      change: stats.revenue,
      meaning: `Revenue: ${formatMoney(stats.revenue.current)} in the last 30 days, ${formatMoney(stats.revenue.previous)} in the 30 before.`,
      icon: DollarSign,
    },
  ];
}

const CHANGE_TONE: Record<ChangeDirection, string> = {
  up: "text-success",
  down: "text-destructive",
  flat: "text-muted-foreground",
  new: "text-primary",
};

function Change({ figure, testId }: { figure: PeriodFigure; testId: string }) {
  const { direction, percent } = describeChange(figure);
  const Icon = DIRECTION_ICONS[direction];
  return (
    <p className="flex items-center gap-1 text-xs text-muted-foreground" data-testid={testId}>
      <Icon className={`size-3.5 shrink-0 ${CHANGE_TONE[direction]}`} aria-hidden="true" />
      <span className={`font-medium ${CHANGE_TONE[direction]}`}>{percent}</span>
      <span>{direction === "new" ? "— none in the previous 30 days" : "from the previous 30 days"}</span>
    </p>
  );
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
          <CardContent className="space-y-1">
            <p className="text-2xl font-bold" data-testid={`stat-${c.title}`}>
              {c.value}
            </p>
            <Change figure={c.change} testId={`change-${c.title}`} />
            <p className="text-xs text-muted-foreground" data-testid={`meaning-${c.title}`}>
              {c.meaning}
            </p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

export function StatCardsSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" role="status" aria-busy="true" aria-label="Loading statistics">
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

const ACTIVITY_ICONS: Record<ActivityKind, { icon: LucideIcon; label: string }> = {
  order: { icon: ShoppingCart, label: "Order" },
  message: { icon: Mail, label: "Message" },
  low_stock: { icon: AlertTriangle, label: "Low stock" },
  import: { icon: Upload, label: "Import" },
  product: { icon: PackagePlus, label: "Product" },
};

export function RecentActivity({ items }: { items: DashboardActivity[] | null }) {
  return (
    <Card className="lg:col-span-7">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription>Orders paid, messages received, products low on stock, imports and new products, newest first.</CardDescription>
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
          <ul className="space-y-4" aria-label="Recent activity">
            {items.map((item, i) => {
              const { icon: Icon, label } = ACTIVITY_ICONS[item.kind];
              return (
                <li key={i} className="flex items-start gap-3">
                  <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">
                      <span className="sr-only">{label}: </span>
                      <Link to={item.href} className="hover:underline">
                        {item.title}
                      </Link>
                    </p>
                    <p className="text-xs text-muted-foreground">
                      {item.detail} · <time dateTime={item.at}>{when.format(new Date(item.at))} UTC</time>
                    </p>
                  </div>
                </li>
              );
            })}
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
