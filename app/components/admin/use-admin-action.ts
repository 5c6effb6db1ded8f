import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { AdminActionResult } from "~/lib/product-input";

type Failure = Extract<AdminActionResult, { ok: false }>;
type Success = Extract<AdminActionResult, { ok: true }>;

/**
 * One admin write through a fetcher: sends JSON to `action`, then shows the server's toast —
 * the success text, or the destructive 'Failed to …' title with the reason.
 */
export function useAdminAction(opts: {
  action: string;
  onSuccess?: (data: Success) => void;
  onFailure?: (data: Failure) => void;
  /** False when the caller shows the failure itself (inline, beside a field). */
  toastFailure?: (data: Failure) => boolean;
}) {
  const fetcher = useFetcher<AdminActionResult>();
  const handled = useRef<unknown>(undefined);
  const callbacks = useRef(opts);
  callbacks.current = opts;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const result = fetcher.data;
    if (result.ok) {
      if (result.message) toast.success(result.message);
      callbacks.current.onSuccess?.(result);
    } else {
      if (callbacks.current.toastFailure?.(result) ?? true) toast.error(result.title, { description: result.message });
      callbacks.current.onFailure?.(result);
    }
  }, [fetcher.state, fetcher.data]);

  return {
    fetcher,
    busy: fetcher.state !== "idle",
    /** The JSON being sent, while it is in flight: for showing the change before the answer. */
    pending: fetcher.state !== "idle" ? (fetcher.json as Record<string, unknown> | undefined) : undefined,
    submit: (payload: Record<string, unknown>) =>
      fetcher.submit(payload as never, { method: "post", action: opts.action, encType: "application/json" }),
  };
}
