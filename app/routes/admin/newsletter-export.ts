import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { exportSubscriptionsCsv } from "~/server/content/index.server";
import type { Route } from "./+types/newsletter-export";

/** The subscription list as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const csv = await exportSubscriptionsCsv(getDb());
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="newsletter-subscribers-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
