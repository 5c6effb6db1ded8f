import { useId } from "react";
import { RETURN_WINDOW_MAX_DAYS, RETURNS_FIELDS, WITHDRAWAL_MAX_DAYS, WITHDRAWAL_MIN_DAYS, type ReturnsSetting } from "~/lib/returns";
import { CheckboxSetting, SettingCard, WholeNumberSetting } from "./setting-card";

/** Where the card saves (app/routes/admin/site-settings-returns.ts). */
export const RETURNS_SETTINGS_ACTION = "/admin/site-settings/returns";

/**
 * Site Settings → Returns (docs/rules/returns.md): the return window in days after shipping (0
 * turns returns off), and the EU right of withdrawal (off by default) with its period. Saved on its
 * own, like the reminder's card.
 */
export function ReturnsSettings({ setting }: { setting: ReturnsSetting }) {
  const windowId = useId();
  const withdrawalId = useId();
  const periodId = useId();
  return (
    <SettingCard
      title="Returns"
      action={RETURNS_SETTINGS_ACTION}
      saveLabel="Save returns"
      description="Shoppers ask for a return from their order's page (signed in, or by the link in their mails) within the window, counted from the day the order shipped. You approve, receive and refund it at Returns."
    >
      {(errors) => (
        <>
          <WholeNumberSetting
            id={windowId}
            name={RETURNS_FIELDS.returnWindowDays}
            label="Return window (days)"
            hint={`A whole number from 0 to ${RETURN_WINDOW_MAX_DAYS}; 0 turns returns off.`}
            min={0}
            max={RETURN_WINDOW_MAX_DAYS}
            defaultValue={setting.returnWindowDays}
            error={errors[RETURNS_FIELDS.returnWindowDays]}
          />
          <CheckboxSetting
            id={withdrawalId}
            name={RETURNS_FIELDS.withdrawalEnabled}
            defaultChecked={setting.withdrawalEnabled}
            label="Right of withdrawal (EU)"
            hint="Every order page shows 'Withdraw from contract here' during the period, and the footer links to a page where a guest gets their order's link by mail."
            error={errors[RETURNS_FIELDS.withdrawalEnabled]}
          />
          <WholeNumberSetting
            id={periodId}
            name={RETURNS_FIELDS.withdrawalDays}
            label="Withdrawal period (days)"
            hint={`Days after delivery (or shipping, when no delivery is recorded), from ${WITHDRAWAL_MIN_DAYS} to ${WITHDRAWAL_MAX_DAYS}.`}
            min={WITHDRAWAL_MIN_DAYS}
            max={WITHDRAWAL_MAX_DAYS}
            defaultValue={setting.withdrawalDays}
            error={errors[RETURNS_FIELDS.withdrawalDays]}
          />
        </>
      )}
    </SettingCard>
  );
}
