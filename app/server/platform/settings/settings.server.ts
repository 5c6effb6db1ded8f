import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { SETTING_KEYS, type SiteSettings } from "~/lib/site-settings";
import { resolveSiteSettings } from "~/lib/site-settings-rules";
import type { SiteSettingsInput } from "~/lib/site-settings-input";
import type { Db } from "../db/client.server";
import { siteSettings } from "../db/schema";
import { logger } from "../logger.server";
import { getStorage } from "../storage/storage.server";

/** Read on every request (five small rows) so a saved change shows at once on every server. */
export async function getSiteSettings(db: Db): Promise<SiteSettings> {
  const rows = await db
    .select({ settingKey: siteSettings.settingKey, settingValue: siteSettings.settingValue })
    .from(siteSettings);
  return resolveSiteSettings(rows);
}

export type SiteSettingsValues = z.output<typeof SiteSettingsInput>;

/** Uploaded logo and hero files: the only stored objects a settings save may clean up. */
const OWN_IMAGE = /^(logo|hero)-(\d+)\.[a-z]+$/;

/** An upload never saved is kept this long, so another admin's unsaved upload is not pulled from under them. */
export const UNSAVED_UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

/** Saves one row of site_settings that another area keeps (the low-stock default), in the caller's transaction. */
export async function saveSetting(tx: Db, key: string, value: unknown): Promise<void> {
  await tx
    .insert(siteSettings)
    .values({ settingKey: key, settingValue: value })
    .onConflictDoUpdate({
      target: siteSettings.settingKey,
      set: { settingValue: sql`excluded.setting_value`, updatedAt: sql`now()` },
    });
}

/**
 * Changes one row of site_settings from its stored value, with the row locked while it is read
 * and written, so two admins saving at once leave one consistent value. `change` gets the stored
 * value (undefined for a new row) and the database's clock as ISO 8601 text.
 */
export async function changeSetting<T>(db: Db, key: string, change: (before: unknown, now: string) => T): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.insert(siteSettings).values({ settingKey: key, settingValue: {} }).onConflictDoNothing({ target: siteSettings.settingKey });
    const [row] = await tx
      .select({ value: siteSettings.settingValue, now: sql<string>`to_json(now()) #>> '{}'` })
      .from(siteSettings)
      .where(eq(siteSettings.settingKey, key))
      .for("update");
    const value = change(row?.value, row!.now);
    await tx.update(siteSettings).set({ settingValue: value, updatedAt: sql`now()` }).where(eq(siteSettings.settingKey, key));
    return value;
  });
}

/**
 * Upserts all five keys by setting_key in one transaction: either every key is saved or none
 * is (docs/rules/admin.md, Site settings). Afterwards, a logo or hero image that was replaced or removed is deleted from
 * storage, and so are uploads that were never saved (older than a day); that is best effort,
 * since the settings are already safe.
 */
export async function saveSiteSettings(
  db: Db,
  input: SiteSettingsValues,
  /** Another area's settings saved in the same transaction (the Inventory tab's low-stock default). */
  alsoInTransaction?: (tx: Db) => Promise<void>,
): Promise<void> {
  const previous = await db.transaction(async (tx) => {
    if (alsoInTransaction) await alsoInTransaction(tx);
    const before = await getSiteSettings(tx);
    for (const key of SETTING_KEYS) {
      await tx
        .insert(siteSettings)
        .values({ settingKey: key, settingValue: input[key] })
        .onConflictDoUpdate({
          target: siteSettings.settingKey,
          set: { settingValue: sql`excluded.setting_value`, updatedAt: sql`now()` },
        });
    }
    return before;
  });
  await deleteReplacedImages([
    [previous.site_branding.logo_url, input.site_branding.logo_url],
    [previous.hero_section.background_image, input.hero_section.background_image],
  ]);
  await deleteUnsavedUploads([input.site_branding.logo_url, input.hero_section.background_image]);
}

/** Logo and hero files uploaded but never saved (the admin left the page, or uploaded twice). */
async function deleteUnsavedUploads(inUse: string[], now = Date.now()) {
  const storage = getStorage();
  const keep = new Set(inUse.map((url) => (url ? storage.keyFromUrl(url) : null)));
  try {
    for (const prefix of ["logo-", "hero-"]) {
      for (const key of await storage.list(prefix)) {
        const uploadedAt = Number(OWN_IMAGE.exec(key)?.[2]);
        if (!uploadedAt || keep.has(key) || now - uploadedAt < UNSAVED_UPLOAD_GRACE_MS) continue;
        await storage.delete(key);
      }
    }
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "could not clean up unsaved settings images");
  }
}

async function deleteReplacedImages(pairs: [before: string, after: string][]) {
  const storage = getStorage();
  for (const [before, after] of pairs) {
    if (!before || before === after) continue;
    const key = storage.keyFromUrl(before);
    if (!key || !OWN_IMAGE.test(key)) continue;
    try {
      await storage.delete(key);
    } catch (err) {
      logger.warn({ err: (err as Error).message, key }, "could not delete a replaced settings image");
    }
  }
}
