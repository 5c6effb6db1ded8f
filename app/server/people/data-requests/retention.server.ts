import { sql } from "drizzle-orm";
import { ORDER_RETENTION_SETTING_KEY, resolveRetentionSetting, type RetentionSetting, DEFAULT_RETENTION_SETTING } from "~/lib/personal-data";
import { type Db, saveSetting } from "../../platform/index.server";

/** The owner's 'Keep order records for (years)' (Site Settings → Privacy); missing or unreadable reads as 10. */
export async function getRetentionSetting(db: Db): Promise<RetentionSetting> {
  const result = await db.execute<{ value: unknown }>(sql`select setting_value as value from site_settings where setting_key = ${ORDER_RETENTION_SETTING_KEY}`);
  return result.rows[0] ? resolveRetentionSetting(result.rows[0].value) : DEFAULT_RETENTION_SETTING;
}

/** Saves the years (already checked: a whole number, at least the law's one year). */
export async function saveRetentionSetting(db: Db, setting: RetentionSetting): Promise<RetentionSetting> {
  await saveSetting(db, ORDER_RETENTION_SETTING_KEY, { years: setting.years });
  return setting;
}
