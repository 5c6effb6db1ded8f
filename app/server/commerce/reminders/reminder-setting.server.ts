import { eq } from "drizzle-orm";
import { REMINDER_SETTING_KEY, resolveReminderSetting, type ReminderSetting } from "~/lib/abandoned-checkout";
import { changeSetting, type Db, siteSettings } from "../../platform/index.server";

/**
 * The abandoned-checkout reminder's setting (docs/rules/after-sale.md, The abandoned-checkout
 * reminder), in its own site_settings row. Besides what the owner sees (on/off, hours) it keeps
 * `enabledSince`, the moment it was last turned on: only checkouts placed since then are reminded,
 * so turning it on never mails the whole past week at once. It is the database's ISO 8601
 * timestamp (microseconds kept), compared in SQL.
 */
export type StoredReminderSetting = ReminderSetting & { enabledSince: string | null };

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

function resolve(value: unknown): StoredReminderSetting {
  const setting = resolveReminderSetting(value);
  const raw = value && typeof value === "object" ? (value as Record<string, unknown>).enabledSince : undefined;
  const since = typeof raw === "string" && ISO_TIMESTAMP.test(raw) ? raw : null;
  return { ...setting, enabledSince: setting.enabled ? since : null };
}

export async function getReminderSetting(db: Db): Promise<StoredReminderSetting> {
  const [row] = await db
    .select({ value: siteSettings.settingValue })
    .from(siteSettings)
    .where(eq(siteSettings.settingKey, REMINDER_SETTING_KEY));
  return resolve(row?.value);
}

/**
 * Saves on/off and the hours. Turning it on stamps `enabledSince` with the database's clock (the
 * clock that stamps orders); saving while it stays on keeps the stamp. The row is locked while it
 * is read and written, so two admins saving at once leave one consistent value.
 */
export async function saveReminderSetting(db: Db, input: ReminderSetting): Promise<StoredReminderSetting> {
  const saved = await changeSetting(db, REMINDER_SETTING_KEY, (stored, now) => {
    const before = resolve(stored);
    const enabledSince = input.enabled ? (before.enabled && before.enabledSince ? before.enabledSince : now) : null;
    return { enabled: input.enabled, hours: input.hours, enabledSince };
  });
  return saved;
}
