import { requireAdmin } from "~/routes/_edge/guards.server";
import { customersCsvChunks } from "~/server/customers/csv.server";
import { parseCustomerListQuery } from "~/server/customers/list.server";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/export";

/** The customers the list's search finds (every page), sorted as the list is, as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { q, sort, dir } = parseCustomerListQuery(new URL(request.url));
  // Who exported what kind of list; the search itself may be someone's address, so it stays out of the log.
  logger.info({ adminId: admin.id, searched: q !== "", sort, dir }, "customers export");
  const chunks = customersCsvChunks(getDb(), { q, sort, dir });
  const encoder = new TextEncoder();
  // Streamed batch by batch, so a large shop's export never sits in memory at once.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        logger.error({ err }, "customers export failed");
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
      "Content-Disposition": `attachment; filename="customers-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
