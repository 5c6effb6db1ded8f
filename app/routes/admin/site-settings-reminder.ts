import type { ReminderSettingAnswer } from "~/lib/abandoned-checkout";
import { parseReminderForm } from "~/lib/abandoned-checkout-input";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { saveReminderSetting } from "~/server/commerce/index.server";
import type { Route } from "./+types/site-settings-reminder";

/**
 * Site Settings → Emails, 'Abandoned-checkout reminder' (POST only): saves on/off and the hours.
 * Every answer is JSON (ReminderSettingAnswer); bad input is a 400 naming the field.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return jsonResponse({ kind: "bad_input" }, { ok: false, message: "The form could not be read" } satisfies ReminderSettingAnswer);
  const parsed = parseReminderForm(form);
  if (!parsed.ok) return jsonResponse({ kind: "bad_input" }, { ok: false, message: parsed.message, fieldErrors: parsed.fieldErrors } satisfies ReminderSettingAnswer);
  const saved = await saveReminderSetting(getDb(), parsed.value);
  const hours = saved.hours === 1 ? "1 hour" : `${saved.hours} hours`;
  const answer: ReminderSettingAnswer = {
    ok: true,
    message: saved.enabled ? `Reminder on: it goes out ${hours} after an unpaid checkout.` : "Reminder off: no reminders are sent.",
    setting: { enabled: saved.enabled, hours: saved.hours },
  };
  return Response.json(answer);
}

