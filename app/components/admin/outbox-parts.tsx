import { Badge } from "~/components/ui/badge";
import { MAIL_MAX_ATTEMPTS, canResend, mailStateLabel, type OutboxRow } from "~/lib/outbox-view";
import { RowRetryForm } from "./row-action";
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
  if (!canResend(mail)) return null;
  return <RowRetryForm intent="resend" id={mail.id} label="Resend" ariaLabel={label ?? `Resend the mail to ${mail.to}`} />;
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
