import { Loader2, RotateCcw } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import type { FailedJobRow, TryAgainAnswer } from "~/lib/failed-jobs-view";

/** 'Try again' for a failed job: a form, so it works before the page's JavaScript has loaded. */
export function TryAgainButton({ job }: { job: Pick<FailedJobRow, "id" | "name"> }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === job.id;
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="id" value={job.id} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Try again: ${job.name} (job ${job.id})`}>
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
        Try again
      </Button>
    </Form>
  );
}

/** The answer to 'Try again', as a toast and (without JavaScript, or for a screen reader) as text. */
export function TryAgainResult({ answer }: { answer: TryAgainAnswer | undefined }) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!answer || shown.current === answer) return;
    shown.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [answer]);
  return (
    <div role="status" className="text-sm empty:hidden">
      {answer ? answer.message : null}
    </div>
  );
}
