import { Suspense } from "react";
import { Await, data, type ShouldRevalidateFunctionArgs } from "react-router";
import {
  SettingsEditor,
  SettingsLoadError,
  SettingsSkeleton,
  type SaveResult,
} from "~/components/admin/site-settings/settings-editor";
import { formatBytes } from "~/lib/format";
import { DEFAULT_LOW_STOCK_THRESHOLD, parseInventoryForm } from "~/lib/low-stock";
import { parseSettingsForm } from "~/lib/site-settings-form";
import type { SiteSettings } from "~/lib/site-settings";
import { refuse, respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { loadSiteSettings, saveSiteSettingsForm, shopMailTexts } from "~/server/content/index.server";
import { getDb, getEnv, logger } from "~/server/platform/http/index.server";
import { formFile, getLowestPriceSetting, getLowStockDefault, readUploadForm, saveImageUpload, saveLowStockDefault, UploadError } from "~/server/catalog/index.server";
import { resolveMailTemplates, type MailTemplates } from "~/lib/mail-templates";
import { getReminderSetting, getReturnsSetting } from "~/server/commerce/index.server";
import { DEFAULT_RETURNS_SETTING, type ReturnsSetting } from "~/lib/returns";
import { DEFAULT_REMINDER_SETTING, type ReminderSetting } from "~/lib/abandoned-checkout";
import { DEFAULT_LOWEST_PRICE_SETTING, type LowestPriceSetting } from "~/lib/lowest-price";
import { getRetentionSetting } from "~/server/people/index.server";
import { DEFAULT_RETENTION_SETTING, type RetentionSetting } from "~/lib/personal-data";
import type { Route } from "./+types/site-settings";

export const meta: Route.MetaFunction = () => [
  { title: "Site Settings — Admin — Linen & Loft" },
  { name: "description", content: "Edit the shop's branding, theme colours, hero, featured section and footer." },
  { name: "robots", content: "noindex" },
];

export type SettingsLoad = { ok: true; settings: SiteSettings } | { ok: false; error: string };

async function loadSettings(): Promise<SettingsLoad> {
  try {
    return { ok: true, settings: await loadSiteSettings(getDb()) };
  } catch (err) {
    logger.error({ err }, "site settings could not be loaded");
    return { ok: false, error: "Failed to load site settings" };
  }
}

/** The Inventory tab's default low-stock threshold; when it cannot be read the tab shows the built-in default. */
async function loadLowStockDefault(): Promise<number> {
  try {
    return await getLowStockDefault(getDb());
  } catch (err) {
    logger.error({ err }, "low-stock threshold could not be loaded");
    return DEFAULT_LOW_STOCK_THRESHOLD;
  }
}

/** The Emails tab's subjects and intros; when they cannot be read the tab shows the defaults. */
async function loadMailTemplates(): Promise<MailTemplates> {
  try {
    return await shopMailTexts(getDb());
  } catch (err) {
    logger.error({ err }, "mail templates could not be loaded");
    return resolveMailTemplates({});
  }
}

/** The Emails tab's abandoned-checkout reminder; when it cannot be read the card shows the default (off). */
async function loadReminderSetting(): Promise<ReminderSetting> {
  try {
    const { enabled, hours } = await getReminderSetting(getDb());
    return { enabled, hours };
  } catch (err) {
    logger.error({ err }, "abandoned-checkout reminder setting could not be loaded");
    return DEFAULT_REMINDER_SETTING;
  }
}

/** The Returns tab's setting; when it cannot be read the card shows the defaults. */
async function loadReturnsSetting(): Promise<ReturnsSetting> {
  try {
    return await getReturnsSetting(getDb());
  } catch (err) {
    logger.error({ err }, "returns setting could not be loaded");
    return DEFAULT_RETURNS_SETTING;
  }
}

/** The Prices tab's 30-day lowest price setting; when it cannot be read the card shows the default (on). */
async function loadLowestPriceSetting(): Promise<LowestPriceSetting> {
  try {
    return await getLowestPriceSetting(getDb());
  } catch (err) {
    logger.error({ err }, "lowest price setting could not be loaded");
    return DEFAULT_LOWEST_PRICE_SETTING;
  }
}

/** The Privacy tab's order retention; when it cannot be read the card shows the default (10 years). */
async function loadRetentionSetting(): Promise<RetentionSetting> {
  try {
    return await getRetentionSetting(getDb());
  } catch (err) {
    logger.error({ err }, "order retention setting could not be loaded");
    return DEFAULT_RETENTION_SETTING;
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  // Not awaited: the page streams its skeleton first, then the form.
  return {
    settings: loadSettings(),
    lowStockThreshold: loadLowStockDefault(),
    mailTemplates: loadMailTemplates(),
    reminder: loadReminderSetting(),
    returns: loadReturnsSetting(),
    lowestPrice: loadLowestPriceSetting(),
    retention: loadRetentionSetting(),
    adminEmail: admin.email,
    uploadLimit: formatBytes(getEnv().UPLOAD_MAX_BYTES),
  };
}

/** Key prefix (docs/rules/catalogue-data.md) and the largest size worth keeping: a header logo, a full-width hero. */
const UPLOADS = {
  "upload-logo": { keyPrefix: "logo", fit: { width: 1024, height: 1024 } },
  "upload-hero": { keyPrefix: "hero", fit: { width: 2560, height: 2560 } },
} as const;

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  let form: FormData;
  try {
    form = await readUploadForm(request);
  } catch (err) {
    if (err instanceof UploadError) return respond(err, { ok: false as const, error: "Failed to upload image", reason: err.message });
    refuse({ kind: "bad_input", message: "The form could not be read" });
  }
  const intent = String(form.get("intent") ?? "");

  if (intent === "upload-logo" || intent === "upload-hero") {
    try {
      const { url } = await saveImageUpload(formFile(form, "file"), UPLOADS[intent]);
      return data({ ok: true as const, url });
    } catch (err) {
      // Refused by its content, or over the byte limit though the form was not: 400 either way here.
      if (err instanceof UploadError) {
        return respond({ kind: "bad_input" }, { ok: false as const, error: "Failed to upload image", reason: err.message });
      }
      logger.error({ err }, "image upload could not be stored");
      return respond(
        { kind: "failed" },
        {
          ok: false as const,
          error: "Failed to upload image",
          reason: "The image could not be stored. Please try again.",
        },
      );
    }
  }

  if (intent === "save") {
    const parsed = parseSettingsForm(form);
    const inventory = parseInventoryForm(form);
    if (!parsed.ok || !inventory.ok) {
      return respond(
        { kind: "bad_input" },
        {
          ok: false as const,
          error: "Failed to save site settings",
          reason: [parsed.ok ? "" : parsed.summary, inventory.ok ? "" : inventory.summary].filter(Boolean).join(". "),
          fieldErrors: { ...(parsed.ok ? {} : parsed.fieldErrors), ...(inventory.ok ? {} : inventory.fieldErrors) },
        },
      );
    }
    try {
      await saveSiteSettingsForm(getDb(), parsed.value, async (tx) => {
        // The Inventory tab's default low-stock threshold is saved with the rest, or not at all.
        if (inventory.lowStockThreshold !== undefined) await saveLowStockDefault(tx, inventory.lowStockThreshold);
      });
    } catch (err) {
      logger.error({ err }, "site settings could not be saved");
      return respond(
        { kind: "failed" },
        {
          ok: false as const,
          error: "Failed to save site settings",
          reason: "Nothing was changed. Please try again.",
          fieldErrors: {},
        },
      );
    }
    return data({ ok: true as const, message: "Site settings saved successfully" });
  }

  refuse({ kind: "bad_input", message: "Unknown action" });
}

/** An upload only changes a field in the form; reloading the page would throw away unsaved edits. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (String(formData?.get("intent") ?? "").startsWith("upload-")) return false;
  return defaultShouldRevalidate;
}

export default function SiteSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 p-4 md:p-6">
      <Suspense fallback={<SettingsSkeleton />}>
        <Await resolve={loaderData.settings}>
          {(result) =>
            result.ok ? (
              <SettingsEditor
                settings={result.settings}
                lowStockThreshold={loaderData.lowStockThreshold}
                mailTemplates={loaderData.mailTemplates}
                reminder={loaderData.reminder}
                returns={loaderData.returns}
                lowestPrice={loaderData.lowestPrice}
                retention={loaderData.retention}
                adminEmail={loaderData.adminEmail}
                uploadLimit={loaderData.uploadLimit}
                saveResult={
                  actionData && ("message" in actionData || "fieldErrors" in actionData)
                    ? (actionData as SaveResult)
                    : undefined
                }
              />
            ) : (
              <SettingsLoadError message={result.error} />
            )
          }
        </Await>
      </Suspense>
    </div>
  );
}
