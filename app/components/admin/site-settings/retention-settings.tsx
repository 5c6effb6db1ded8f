import { useId } from "react";
import { MAX_RETENTION_YEARS, MIN_RETENTION_YEARS, RETENTION_FIELD, RETENTION_SETTING_LABEL, type RetentionSetting } from "~/lib/personal-data";
import { SettingCard, WholeNumberSetting } from "./setting-card";

/** Where the card saves (app/routes/admin/site-settings-privacy.ts). */
export const RETENTION_SETTINGS_ACTION = "/admin/site-settings/privacy";

/**
 * Site Settings → Privacy (docs/rules/personal-data.md, Retention): how long an order stays as the
 * shop's record. A deleted account's orders, and guests' orders, keep their names and addresses
 * until then; a daily task erases them once the years have passed. Saved on its own.
 */
export function RetentionSettings({ setting }: { setting: RetentionSetting }) {
  const id = useId();
  return (
    <SettingCard
      title="Privacy"
      action={RETENTION_SETTINGS_ACTION}
      saveLabel="Save privacy"
      description="Orders are the shop's records: tax and accounting law asks you to keep them for years, even after a customer deletes their account. Once this many years have passed since an order, a daily task erases the customer's name, address, email and phone from it; its lines and amounts stay for your figures."
    >
      {(errors) => (
        <WholeNumberSetting
          id={id}
          name={RETENTION_FIELD}
          label={RETENTION_SETTING_LABEL}
          hint={`From ${MIN_RETENTION_YEARS} to ${MAX_RETENTION_YEARS} years; 10 is the usual legal period. Check what your country asks.`}
          min={MIN_RETENTION_YEARS}
          max={MAX_RETENTION_YEARS}
          defaultValue={setting.years}
          error={errors[RETENTION_FIELD]}
        />
      )}
    </SettingCard>
  );
}
