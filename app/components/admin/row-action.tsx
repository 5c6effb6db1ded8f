import { Loader2, RotateCcw } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";

/**
 * A row's one action that runs something again ('Resend' a mail, 'Try again' a job): a form
 * posting `intent` and the row's `id` to the page's action, so it works before the page's
 * JavaScript has loaded; it spins while that row's post is under way.
 */
export function RowRetryForm({ intent, id, label, ariaLabel }: { intent: string; id: string; label: string; ariaLabel: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === id;
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={ariaLabel}>
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
        {label}
      </Button>
    </Form>
  );
}

/** The action's answer, as a toast and (without JavaScript, or for a screen reader) as text. */
export function RowActionAnswer({ answer }: { answer: { ok: boolean; message: string } | undefined }) {
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
