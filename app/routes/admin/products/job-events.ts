import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { jobProgress } from "~/server/catalog/index.server";
import { getDb, logger, shutdownSignal } from "~/server/platform/http/index.server";
import type { Route } from "./+types/job-events";

const POLL_MS = 500;

/**
 * Server-sent events for one job: its state whenever it changes, until it is done or failed.
 * The job may run on another app server, so this reads the database rather than memory.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  const first = await jobProgress(db, params.jobId);
  if (!first) return respond({ kind: "not_found", message: "Job not found" });
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Listeners on the process-wide shutdown signal outlive the stream unless removed.
  let detach = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = "";
      let quietFor = 0;
      const close = () => {
        clearTimeout(timer);
        detach();
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      const tick = async () => {
        try {
          const job = await jobProgress(db, params.jobId);
          if (!job) return close();
          const payload = JSON.stringify(job);
          if (payload !== last) {
            last = payload;
            quietFor = 0;
            controller.enqueue(encoder.encode(`data: ${payload}\n\n`));
          } else if ((quietFor += POLL_MS) >= 15_000) {
            quietFor = 0;
            controller.enqueue(encoder.encode(": still working\n\n"));
          }
          if (job.status === "done" || job.status === "failed" || (job.status === "pending" && job.kind === "import")) return close();
          timer = setTimeout(tick, POLL_MS);
        } catch (err) {
          logger.warn({ err }, "job events stream stopped");
          close();
        }
      };
      // A stopping shop ends the stream; the page reconnects or polls another server.
      if (shutdownSignal.aborted) return close();
      request.signal.addEventListener("abort", close);
      shutdownSignal.addEventListener("abort", close, { once: true });
      detach = () => {
        request.signal.removeEventListener("abort", close);
        shutdownSignal.removeEventListener("abort", close);
      };
      void tick();
    },
    cancel() {
      clearTimeout(timer);
      detach();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
