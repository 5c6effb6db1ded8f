import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import { ordersCsvChunks } from "~/server/orders/admin-orders-csv.server";
import { parseAdminOrderQuery } from "~/server/orders/admin-orders.server";
import type { Route } from "./+types/export";

/** The orders the list's filters select (every page), as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { page: _page, ...filters } = parseAdminOrderQuery(new URL(request.url));
  const chunks = ordersCsvChunks(getDb(), filters);
  const encoder = new TextEncoder();
  // Streamed batch by batch, so a large shop's export never sits in memory at once.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        logger.error({ err }, "orders export failed");
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
