import { data } from "react-router";
import type { ResendAnswer } from "~/lib/outbox-view";
import { isUuid } from "~/lib/uuid";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { resendFromOutbox } from "~/server/content/index.server";
import { getDb } from "~/server/platform/http/index.server";

/**
 * The Outbox pages' one action, 'Resend' (the list's and a mail's own page): the answer says what
 * became of the mail, with the relay's words when it refused again. Bad input is a 400 with a
 * message, an unknown mail a 404.
 */
export async function resendAction(request: Request) {
  await requireAdmin(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "resend") return respond<ResendAnswer>({ kind: "bad_input" }, { ok: false, message: "Unknown action" });
  if (!isUuid(id)) return respond<ResendAnswer>({ kind: "not_found" }, { ok: false, message: "Mail not found" });
  const result = await resendFromOutbox(getDb(), id);
  if (!result.ok) return respond<ResendAnswer>({ kind: result.kind }, { ok: false, message: result.message });
  const { mail } = result;
  const to = mail?.to ?? "the recipient";
  const message = {
    sent: `Sent to ${to}.`,
    retrying: `The mail server refused it again${mail?.error ? ` (${mail.error})` : ""}: it will be retried.`,
    given_up: `The mail server refused it again${mail?.error ? ` (${mail.error})` : ""}.`,
    skipped: "This mail is on its way already.",
  }[result.outcome];
  return data<ResendAnswer>({ ok: result.outcome === "sent" || result.outcome === "skipped", message });
}
