import type { Database } from "../db/client.server";
import { startPeriodicTask } from "../jobs/cluster-task.server";
import { deliverDueMails } from "./mail.server";

/**
 * The send log's worker: at start and every 30 s, the mails whose try is due (queued and never
 * tried, after a crash; or retrying, their wait over). One app server of the cluster runs it at a
 * time (docs/decisions/0017); the claims in mail.server.ts make even two runs at once send a mail
 * once. Returns a function that stops it.
 */
export function startMailWorker(db: Database, { everyMs = 30_000 } = {}) {
  return startPeriodicTask(db, { name: "mail:send-log", everyMs, atStart: true }, () => deliverDueMails(db));
}
