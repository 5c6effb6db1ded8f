import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb, getJob, toJobView } from "~/server/platform/index.server";
import type { Route } from "./+types/job";

/** One import or migration job's progress, for polling where server-sent events do not get through. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const job = await getJob(getDb(), params.jobId);
  if (!job) return respond({ kind: "not_found", message: "Job not found" });
  return { job: toJobView(job) };
}
