import { type Db, getSiteSettings, saveSiteSettings } from "../../platform/index.server";

/**
 * The site settings as the shop shows them: its branding, theme colours, hero, featured section
 * and footer, read by every page (the layout), the blog's feed and the mails, and saved from
 * Site Settings. What the shop says and how it looks is content's; the rows are kept by
 * platform's settings store (the one writer of site_settings, which other areas' rows share).
 */

/** The five settings as saved now (defaults for any never saved); read on every request. */
export async function loadSiteSettings(db: Db) {
  return getSiteSettings(db);
}

/**
 * Saves the five settings in one transaction, with `alsoInTransaction` (another area's setting on
 * the same form, the Inventory tab's low-stock default) in it too; then cleans up replaced uploads.
 */
export async function saveSiteSettingsForm(
  db: Db,
  input: Parameters<typeof saveSiteSettings>[1],
  alsoInTransaction?: (tx: Db) => Promise<void>,
): Promise<void> {
  return saveSiteSettings(db, input, alsoInTransaction);
}
