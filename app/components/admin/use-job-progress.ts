import { useEffect, useRef, useState } from "react";
import type { JobView } from "~/lib/jobs-view";

const finished = (job: JobView | null) => !job || job.status === "done" || job.status === "failed" || job.status === "pending";

/** The JSON a job route answered, or the reason it did not. */
export async function readJobAnswer(res: Response): Promise<{ job?: JobView | null; error?: string; maxBytes?: number }> {
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) {
    // A sign-in page instead of JSON: the session ended while the tab was open.
    return { error: res.redirected ? "Your session has ended. Sign in again." : `The server answered ${res.status}` };
  }
  try {
    return await res.json();
  } catch {
    return { error: "Unknown error occurred" };
  }
}

/**
 * Follows a running job: server-sent events from /admin/products/jobs/:id/events, falling back to
 * polling /admin/products/jobs/:id once a second when the stream cannot be opened or breaks.
 * Calls `onFinish` when a job it watched running ends (not for a job already finished).
 */
export function useJobProgress(initial: JobView | null, onFinish: (job: JobView) => void) {
  const [job, setJob] = useState<JobView | null>(initial);
  const finishRef = useRef(onFinish);
  finishRef.current = onFinish;
  const id = job && !finished(job) ? job.id : null;

  useEffect(() => {
    if (!id) return;
    let stopped = false;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const apply = (next: JobView) => {
      if (stopped) return;
      setJob(next);
      if (finished(next)) {
        stopped = true;
        source?.close();
        clearTimeout(timer);
        finishRef.current(next);
      }
    };
    const poll = async () => {
      if (stopped) return;
      try {
        const answer = await readJobAnswer(await fetch(`/admin/products/jobs/${id}`, { headers: { accept: "application/json" } }));
        if (answer.job) apply(answer.job);
      } catch {
        // Offline for a moment: try again on the next tick.
      }
      if (!stopped) timer = setTimeout(poll, 1000);
    };
    if (typeof EventSource === "undefined") void poll();
    else {
      source = new EventSource(`/admin/products/jobs/${id}/events`);
      source.onmessage = (e) => apply(JSON.parse(e.data) as JobView);
      source.onerror = () => {
        source?.close();
        if (!stopped) void poll();
      };
    }
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [id]);

  return [job, setJob] as const;
}
