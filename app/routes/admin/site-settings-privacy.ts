import { parseRetentionYears, RETENTION_FIELD, type RetentionSettingAnswer } from "~/lib/personal-data";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { saveRetentionSetting } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/site-settings-privacy";

/**
 * Site Settings → Privacy (POST only): 'Keep order records for (years)', a whole number from 1 (the
 * law's least) up. Every answer is JSON (RetentionSettingAnswer); a refused value is named beside the field.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return jsonResponse({ kind: "bad_input" }, { ok: false, message: "The form could not be read" } satisfies RetentionSettingAnswer);
  const years = parseRetentionYears(form.get(RETENTION_FIELD));
  if (!years.ok) {
    return jsonResponse({ kind: "bad_input" }, { ok: false, message: years.message, fieldErrors: { [RETENTION_FIELD]: years.message } } satisfies RetentionSettingAnswer);
  }
  const saved = await saveRetentionSetting(getDb(), { years: years.years });
  const message = `Saved. Order records are kept for ${saved.years} year${saved.years === 1 ? "" : "s"}, then their personal details are erased.`;
  return Response.json({ ok: true, message, setting: saved } satisfies RetentionSettingAnswer);
}
