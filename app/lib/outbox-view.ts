/** The admin's Outbox (the send log) as its pages show it: browser-safe shapes and words. */

export type MailStatusView = "queued" | "sent" | "retrying" | "given_up";

/** `failed` is both states of a mail that failed and has not gone out: retrying and given up. */
export const OUTBOX_FILTERS = ["all", "sent", "failed", "retrying", "given_up", "queued"] as const;
export type OutboxFilter = (typeof OUTBOX_FILTERS)[number];

export const OUTBOX_FILTER_LABELS: Record<OutboxFilter, string> = {
  all: "All",
  sent: "Sent",
  failed: "Failed",
  retrying: "Retrying",
  given_up: "Given up",
  queued: "Queued",
};

export type OutboxRow = {
  id: string;
  to: string;
  subject: string;
  kind: string;
  transport: "outbox" | "smtp";
  status: MailStatusView;
  attempts: number;
  nextAttemptAt: string | null;
  error: string | null;
  createdAt: string;
};

/** Tries before a mail is given up (mail.server.ts MAX_ATTEMPTS). */
export const MAIL_MAX_ATTEMPTS = 5;

/** The state's name for a person: 'Kept in the outbox' when no SMTP is set, since that is where it went. */
export function mailStateLabel(m: Pick<OutboxRow, "status" | "transport">): string {
  if (m.status === "sent") return m.transport === "outbox" ? "Kept in the outbox" : "Sent";
  if (m.status === "retrying") return "Failed, retrying";
  if (m.status === "given_up") return "Given up";
  return "Queued";
}

export const canResend = (m: Pick<OutboxRow, "status">) => m.status === "retrying" || m.status === "given_up";

/** What 'Resend' answers: shown as a toast and as text. */
export type ResendAnswer = { ok: boolean; message: string };
