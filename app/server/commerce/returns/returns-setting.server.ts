import { eq } from "drizzle-orm";
import { RETURNS_SETTING_KEY, resolveReturnsSetting, type ReturnsSetting } from "~/lib/returns";
import { changeSetting, type Db, siteSettings } from "../../platform/index.server";

/**
 * The owner's returns setting (Site Settings → Returns): the return window in days (0 turns
 * returns off), and the EU right of withdrawal with its period. One site_settings row of its own.
 */
export async function getReturnsSetting(db: Db): Promise<ReturnsSetting> {
  const [row] = await db.select({ value: siteSettings.settingValue }).from(siteSettings).where(eq(siteSettings.settingKey, RETURNS_SETTING_KEY));
  return resolveReturnsSetting(row?.value);
}

/** Saves the whole setting (the row locked while it is written). */
export async function saveReturnsSetting(db: Db, input: ReturnsSetting): Promise<ReturnsSetting> {
  const saved = await changeSetting(db, RETURNS_SETTING_KEY, () => resolveReturnsSetting(input));
  return saved;
}
