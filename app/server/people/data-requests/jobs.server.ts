import type { Db, JobTasks } from "../../platform/index.server";
import { eraseExpiredOrderData } from "../privacy/erase.server";
import { deleteExpiredDataRequests } from "./links.server";
import { getRetentionSetting } from "./retention.server";

/** The task's name on the job queue (Background jobs shows it). */
export const ERASE_EXPIRED_ORDERS_TASK = "people:erase-expired-orders";

/**
 * The retention period's daily task (docs/rules/personal-data.md, Retention): orders older than
 * the owner's 'Keep order records for (years)' lose their personal fields (eraseExpiredOrderData:
 * batched, each batch one transaction, so a run cut short resumes where it stopped), and expired
 * data-request links are deleted. Once per cluster at 03:30 (graphile-worker's cron); `?max=1`:
 * one try, tomorrow's run picks up whatever is left.
 */
export function personalDataJobs(db: Db): JobTasks {
  return {
    handlers: {
      [ERASE_EXPIRED_ORDERS_TASK]: async () => {
        const now = new Date();
        const { years } = await getRetentionSetting(db);
        await eraseExpiredOrderData(db, now, years);
        await deleteExpiredDataRequests(db, now);
      },
    },
    crontab: [`30 3 * * * ${ERASE_EXPIRED_ORDERS_TASK} ?max=1`],
  };
}
