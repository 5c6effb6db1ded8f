import { Suspense } from "react";
import { Await, useLoaderData } from "react-router";
import { NeedsAttention } from "~/components/admin/dashboard-attention";
import { QuickActions, RecentActivity, StatCards, StatCardsSkeleton } from "~/components/admin/dashboard-cards";
import type { AttentionItem } from "~/lib/dashboard-view";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getAttentionItems, getDashboardStats, getRecentActivity } from "~/server/insight/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [
  { title: "Dashboard — Admin" },
  { name: "description", content: "The shop at a glance: products, orders, revenue and what needs attention." },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  // Not awaited: the page streams at once with skeleton cards, the numbers follow.
  const stats = getDashboardStats(db).catch((err: unknown) => {
    logger.error({ err }, "dashboard stats failed");
    return null;
  });
  const activity = getRecentActivity(db).catch((err: unknown) => {
    logger.error({ err }, "dashboard activity failed");
    return [];
  });
  const attention = getAttentionItems(db).catch((err: unknown): AttentionItem[] | "failed" => {
    logger.error({ err }, "dashboard attention items failed");
    return "failed";
  });
  return { stats, activity, attention };
}

export default function Dashboard() {
  const { stats, activity, attention } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-7xl space-y-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Dashboard</h1>
        <p className="text-muted-foreground">Welcome back. Here is how the shop is doing, compared with the previous 30 days.</p>
      </div>
      <Suspense fallback={<StatCardsSkeleton />}>
        <Await resolve={stats}>{(s) => <StatCards stats={s} />}</Await>
      </Suspense>
      <div className="grid gap-4 lg:grid-cols-7">
        <Suspense fallback={<NeedsAttention items={null} />}>
          <Await resolve={attention}>{(items) => <NeedsAttention items={items} />}</Await>
        </Suspense>
        <QuickActions />
        <Suspense fallback={<RecentActivity items={null} />}>
          <Await resolve={activity}>{(items) => <RecentActivity items={items} />}</Await>
        </Suspense>
      </div>
    </div>
  );
}
