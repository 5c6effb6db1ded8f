import type { FailedJobRow } from "~/lib/failed-jobs-view";
import { RowRetryForm } from "./row-action";

/** 'Try again' for a failed job: a form, so it works before the page's JavaScript has loaded. */
export function TryAgainButton({ job }: { job: Pick<FailedJobRow, "id" | "name"> }) {
  return <RowRetryForm intent="retry" id={job.id} label="Try again" ariaLabel={`Try again: ${job.name} (job ${job.id})`} />;
}
