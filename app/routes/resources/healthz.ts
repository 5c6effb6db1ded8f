import { sql } from "drizzle-orm";
import { getDb, getStorage, logger, statStorage, type Storage } from "~/server/platform/index.server";

const NO_STORE = { "Cache-Control": "no-store" };
/** A check that has not answered by then counts as failed: a health check must answer quickly. */
const TIMEOUT_MS = 3_000;
/** A bucket is asked at most this often (a load balancer may poll every second, per server). */
const STORAGE_TTL_MS = 10_000;

let storageChecked: { at: number; storage: Storage; result: Promise<string | null> } | undefined;

function withTimeout(promise: Promise<unknown>, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([promise.then(() => undefined), late]).finally(() => clearTimeout(timer));
}

/** null when the storage is usable, else why not (kept for a few seconds). */
function storageProblem(): Promise<string | null> {
  const now = Date.now();
  const storage = getStorage();
  if (!storageChecked || storageChecked.storage !== storage || now - storageChecked.at > STORAGE_TTL_MS) {
    const result = withTimeout(statStorage(storage), "storage").then(
      () => null,
      (err: Error) => err.message,
    );
    storageChecked = { at: now, storage, result };
  }
  return storageChecked.result;
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
    storageProblem(),
  ]);
  const body = { database: database ? "unreachable" : "ok", storage: storage ? "unavailable" : "ok" };
  if (!database && !storage) return Response.json({ status: "ok", ...body, ms: Date.now() - started }, { headers: NO_STORE });
  const failed = [database && "database", storage && "storage"].filter((p): p is string => Boolean(p));
  logger.warn({ failed, database: database ?? undefined, storage: storage ?? undefined }, "health check failed");
  return Response.json({ status: "error", ...body, failed }, { status: 503, headers: NO_STORE });
}
