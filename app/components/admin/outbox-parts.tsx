import { Loader2, RotateCcw } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { MAIL_MAX_ATTEMPTS, canResend, mailStateLabel, type OutboxRow, type ResendAnswer } from "~/lib/outbox-view";
import { UtcTime } from "./utc-time";

type StateOf = Pick<OutboxRow, "status" | "transport" | "attempts" | "nextAttemptAt" | "error">;

const VARIANT = { sent: "success", queued: "info", retrying: "warning", given_up: "destructive" } as const;

/** A mail's state: the badge, then what a person needs to act: the relay's answer, the next try. */
export function MailState({ mail, detailed = false }: { mail: StateOf; detailed?: boolean }) {
  const variant = mail.status === "sent" && mail.transport === "outbox" ? "neutral" : VARIANT[mail.status];
  return (
    <div className="grid gap-1">
      <Badge variant={variant}>{mailStateLabel(mail)}</Badge>
      {mail.status === "retrying" && mail.nextAttemptAt ? (
        <span className="text-xs text-muted-foreground">
          Try {mail.attempts} of {MAIL_MAX_ATTEMPTS} failed · next <UtcTime iso={mail.nextAttemptAt} withZone />
        </span>
      ) : null}
      {mail.status === "given_up" ? (
        <span className="text-xs text-muted-foreground">After {mail.attempts} tries</span>
      ) : null}
      {mail.error && mail.status !== "sent" ? (
        <span className={detailed ? "text-sm break-words text-destructive" : "line-clamp-2 max-w-xs text-xs break-words text-destructive"}>
          SMTP answer: {mail.error}
        </span>
      ) : null}
    </div>
  );
}

/** 'Resend' for a mail that failed: a form, so it works before the page's JavaScript has loaded. */
export function ResendButton({ mail, label }: { mail: Pick<OutboxRow, "id" | "status" | "to">; label?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === mail.id;
  if (!canResend(mail)) return null;
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="id" value={mail.id} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={label ?? `Resend the mail to ${mail.to}`}>
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
        Resend
      </Button>
    </Form>
  );
}

/** The answer to 'Resend', as a toast and (without JavaScript, or for a screen reader) as text. */
export function ResendResult({ answer }: { answer: ResendAnswer | undefined }) {
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

/**
 * A mail's HTML as the recipient's mail program would show it: in a sandboxed frame (no script
 * runs, nothing reaches this page), from the stored HTML, never inserted into the admin's page.
 * Its links (target=_blank, as react-email writes them) open in a new tab.
 */
export function MailHtmlFrame({ html, title, width = "100%" }: { html: string; title: string; width?: number | string }) {
  return (
    <iframe
      title={title}
      srcDoc={html}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      className="h-[640px] max-w-full rounded-md border bg-white"
      style={{ width }}
    />
  );
}
