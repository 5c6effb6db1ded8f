import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { jobProgress } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/job";

/** One import or migration job's progress, for polling where server-sent events do not get through. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const job = await jobProgress(getDb(), params.jobId);
  if (!job) return respond({ kind: "not_found", message: "Job not found" });
  return { job };
}
