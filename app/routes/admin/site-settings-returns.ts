import { parseReturnsForm, type ReturnsSettingAnswer } from "~/lib/returns";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { saveReturnsSetting } from "~/server/commerce/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/site-settings-returns";

/**
 * Site Settings → Returns (POST only): the return window and the EU right of withdrawal with its
 * period. Every answer is JSON (ReturnsSettingAnswer); bad input is a 400 naming the field.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return jsonResponse({ kind: "bad_input" }, { ok: false, message: "The form could not be read" } satisfies ReturnsSettingAnswer);
  const parsed = parseReturnsForm(form);
  if (!parsed.ok) return jsonResponse({ kind: "bad_input" }, { ok: false, message: parsed.message, fieldErrors: parsed.fieldErrors } satisfies ReturnsSettingAnswer);
  const saved = await saveReturnsSetting(getDb(), parsed.value);
  const returns = saved.returnWindowDays === 0 ? "Returns off" : `Returns within ${saved.returnWindowDays} days of shipping`;
  const withdrawal = saved.withdrawalEnabled ? `withdrawal on (${saved.withdrawalDays} days)` : "withdrawal off";
  return Response.json({ ok: true, message: `Saved. ${returns}; ${withdrawal}.`, setting: saved } satisfies ReturnsSettingAnswer);
}
