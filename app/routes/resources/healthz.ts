import { sql } from "drizzle-orm";
import { mediaStorageProblem } from "~/server/catalog/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";

const NO_STORE = { "Cache-Control": "no-store" };
/** A check that has not answered by then counts as failed: a health check must answer quickly. */
const TIMEOUT_MS = 3_000;

function withTimeout(promise: Promise<unknown>, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([promise.then(() => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * For load balancers and monitoring: 200 when the database answers and the storage (uploads
 * folder or bucket) is usable; 503 naming the part that failed otherwise. Whether this server is
 * taking new work (it is not while it stops) is /readyz's answer.
 */
export async function loader() {
  const started = Date.now();
  const [database, storage] = await Promise.all([
    withTimeout(getDb().execute(sql`select 1`), "database").then(
      () => null,
      (err: Error) => err.message,
    ),
    // The uploads folder or bucket, asked at most every few seconds (the catalogue's media).
    mediaStorageProblem(TIMEOUT_MS),
  ]);
  const body = { database: database ? "unreachable" : "ok", storage: storage ? "unavailable" : "ok" };
  if (!database && !storage) return Response.json({ status: "ok", ...body, ms: Date.now() - started }, { headers: NO_STORE });
  const failed = [database && "database", storage && "storage"].filter((p): p is string => Boolean(p));
  logger.warn({ failed, database: database ?? undefined, storage: storage ?? undefined }, "health check failed");
  return Response.json({ status: "error", ...body, failed }, { status: 503, headers: NO_STORE });
}
