import { AlertTriangle, CheckCircle2, ChevronRight, CircleDollarSign, Inbox, ListRestart, MailX, PackageX, SearchX, Truck, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import type { AttentionItem, AttentionKind } from "~/lib/dashboard-view";

const number = new Intl.NumberFormat("en-US");

const ICONS: Record<AttentionKind, LucideIcon> = {
  low_stock: PackageX,
  unshipped: Truck,
  messages: Inbox,
  refunds: AlertTriangle,
  refunds_to_confirm: CircleDollarSign,
  mails: MailX,
  jobs: ListRestart,
  searches: SearchX,
};

/**
 * What the owner should act on today: each item with its count and a link to the page listing
 * them. `null` while loading; `"failed"` when the counts could not be read.
 */
export function NeedsAttention({ items }: { items: AttentionItem[] | null | "failed" }) {
  return (
    <Card className="lg:col-span-4">
      <CardHeader>
        <CardTitle>
          <h2>Needs attention</h2>
        </CardTitle>
        <CardDescription>What is waiting for you, with a link to act on it.</CardDescription>
      </CardHeader>
      <CardContent>
        {items === null ? (
          <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading what needs attention">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : items === "failed" ? (
          <p role="alert" className="text-sm text-destructive">
            What needs attention could not be loaded. Reload the page to try again.
          </p>
        ) : items.length === 0 ? (
          <p className="flex items-center gap-2 text-sm" data-testid="all-clear">
            <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
            All clear: nothing needs your attention right now.
          </p>
        ) : (
          <ul className="divide-y" aria-label="Needs attention">
            {items.map((item) => {
              const Icon = ICONS[item.kind];
              const count = `${number.format(item.count)}${item.capped ? "+" : ""}`;
              return (
                <li key={item.kind} className="flex items-center gap-3 py-2.5 first:pt-0 last:pb-0" data-testid={`attention-${item.kind}`}>
                  <Icon className="size-4 shrink-0 text-warning" aria-hidden="true" />
                  <p className="min-w-0 flex-1 text-sm">
                    <Badge variant="outline" className="mr-2 tabular-nums">
                      {count}
                    </Badge>
                    {item.label}
                  </p>
                  <Link
                    to={item.href}
                    className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-primary hover:underline"
                    aria-label={`${item.action}: ${count} ${item.label}`}
                  >
                    {item.action}
                    <ChevronRight className="size-4" aria-hidden="true" />
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
