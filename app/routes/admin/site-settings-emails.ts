import type { MailSettingsAnswer } from "~/lib/mail-settings-view";
import { parseMailTemplateForm } from "~/lib/mail-templates-input";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { previewShopMail, saveShopMailText, sendTestMail } from "~/server/content/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/site-settings-emails";

/**
 * Site Settings → Emails' resource route (POST only): `preview` renders one mail with the
 * editor's unsaved subject and intro and sample data; `save` stores them; `test` sends the preview
 * to the signed-in admin. Every answer is JSON (MailSettingsAnswer); bad input is a 400 naming
 * the field, never a 500.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return answer({ kind: "bad_input" }, { ok: false, message: "The form could not be read" });
  const intent = form.get("intent");
  const parsed = parseMailTemplateForm(form);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return answer({ kind: "bad_input" }, { ok: false, message: Object.values(fieldErrors)[0] ?? "Check the fields", fieldErrors });
  }
  const input = parsed.data;
  const db = getDb();

  if (intent === "save") {
    await saveShopMailText(db, input);
    return answer({ kind: "ok" }, { ok: true, message: input.subject || input.intro ? "Email saved" : "Email saved: it uses the default texts" });
  }
  if (intent !== "preview" && intent !== "test") return answer({ kind: "bad_input" }, { ok: false, message: "Unknown action" });

  const mail = await previewShopMail(db, input);
  if (intent === "preview") return answer({ kind: "ok" }, { ok: true, message: "Preview updated", preview: mail });

  const sent = await sendTestMail(db, admin.email, input, mail);
  if (sent.status === "retrying" || sent.status === "given_up") {
    logger.warn({ mailId: sent.id }, "test mail not delivered");
    return answer({ kind: "ok" }, { ok: false, message: `The test to ${admin.email} could not be sent now: see the Outbox for the mail server's answer.` });
  }
  return answer({ kind: "ok" }, { ok: true, message: `Test sent to ${admin.email}: it is in the Outbox.` });
}

function answer(status: { kind: "ok" } | { kind: "bad_input" }, body: MailSettingsAnswer): Response {
  return status.kind === "ok" ? Response.json(body) : jsonResponse({ kind: "bad_input" }, body);
}
