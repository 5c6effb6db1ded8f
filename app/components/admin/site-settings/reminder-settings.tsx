import { useId } from "react";
import { REMINDER_FIELDS, REMINDER_HOURS_MAX, REMINDER_HOURS_MIN, REMINDER_MAX_AGE_DAYS, type ReminderSetting } from "~/lib/abandoned-checkout";
import { CheckboxSetting, SettingCard, WholeNumberSetting } from "./setting-card";

/** Where the card saves (app/routes/admin/site-settings-reminder.ts). */
export const REMINDER_SETTINGS_ACTION = "/admin/site-settings/reminder";

/**
 * Site Settings → Emails, 'Abandoned-checkout reminder': on or off (off by default) and how many
 * hours after an unpaid checkout it goes out. Saved on its own, like each mail above it; the
 * mail's subject and intro are edited with the other mails ('Abandoned-checkout reminder').
 */
export function ReminderSettings({ setting }: { setting: ReminderSetting }) {
  const enabledId = useId();
  const hoursId = useId();
  return (
    <SettingCard
      title="Abandoned-checkout reminder"
      action={REMINDER_SETTINGS_ACTION}
      saveLabel="Save reminder"
      description={`One mail, some hours after a checkout that was never paid, with the items and a link back to a cart holding them. Only to shoppers who ticked 'Email me about my order' at checkout or subscribe to the newsletter, never twice to one address within a week, and never after they unsubscribe or pay. Checkouts older than ${REMINDER_MAX_AGE_DAYS} days, or placed while the reminder was off, get none.`}
    >
      {(errors) => (
        <>
          <CheckboxSetting
            id={enabledId}
            name={REMINDER_FIELDS.enabled}
            defaultChecked={setting.enabled}
            label="Send the abandoned-checkout reminder"
            error={errors[REMINDER_FIELDS.enabled]}
          />
          <WholeNumberSetting
            id={hoursId}
            name={REMINDER_FIELDS.hours}
            label="Hours after the checkout"
            hint={`A whole number from ${REMINDER_HOURS_MIN} to ${REMINDER_HOURS_MAX}. The shop looks for checkouts due every 10 minutes.`}
            min={REMINDER_HOURS_MIN}
            max={REMINDER_HOURS_MAX}
            defaultValue={setting.hours}
            error={errors[REMINDER_FIELDS.hours]}
          />
        </>
      )}
    </SettingCard>
  );
}
