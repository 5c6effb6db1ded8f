import { sql } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";

/** For load balancers: 200 when the database answers, 503 otherwise. */
export async function loader() {
  const started = Date.now();
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ status: "ok", database: "ok", ms: Date.now() - started }, { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "health check failed");
    return Response.json({ status: "error", database: "unreachable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
