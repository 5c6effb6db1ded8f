import { LOWEST_PRICE_FIELD, type LowestPriceSettingAnswer } from "~/lib/lowest-price";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { saveLowestPriceSetting } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/site-settings-prices";

/**
 * Site Settings → Prices (POST only): whether reductions show the 30-day lowest price. A ticked
 * box sends the field, an unticked one sends nothing. Every answer is JSON (LowestPriceSettingAnswer).
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData().catch(() => null);
  if (!form) return jsonResponse({ kind: "bad_input" }, { ok: false, message: "The form could not be read" } satisfies LowestPriceSettingAnswer);
  const saved = await saveLowestPriceSetting(getDb(), { showBesideReductions: form.has(LOWEST_PRICE_FIELD) });
  const message = saved.showBesideReductions
    ? "Saved. Reduced products show their lowest price of the last 30 days."
    : "Saved. Reduced products no longer show their 30-day lowest price.";
  return Response.json({ ok: true, message, setting: saved } satisfies LowestPriceSettingAnswer);
}
