import { shopJobs } from "~/server/boot.server";
import type { Database } from "~/server/platform/db/client.server";
import { runDueJobs } from "~/server/platform/jobs/queue.server";
import type { Providers } from "~/server/commerce/settlement/providers.server";

/**
 * What the shop's worker does after a commit: every job due now (mails, a paid order's
 * follow-ups, provider calls that are due), with the shop's own handlers. Tests run no worker,
 * so they call this where a running shop would already have done the work.
 */
export async function runShopJobs(db: Database, opts: { providers?: Providers } = {}): Promise<void> {
  await runDueJobs(db, shopJobs(db, opts));
}
