/**
 * The abandoned-checkout reminder (docs/rules/after-sale.md, The abandoned-checkout reminder):
 * its setting, the words the shopper reads, and how the admin's form is read. Browser-safe and
 * free of zod: the checkout page imports the checkbox's words from here (the admin form's schema
 * is in abandoned-checkout-input.ts).
 */

/** The site_settings row of the setting, apart from the storefront's keys (no page reads it). */
export const REMINDER_SETTING_KEY = "abandoned_checkout_reminder";

export const REMINDER_HOURS_MIN = 1;
export const REMINDER_HOURS_MAX = 72;
export const REMINDER_HOURS_DEFAULT = 4;
/** A checkout older than this gets no reminder (a week-old cart is not "just left"). */
export const REMINDER_MAX_AGE_DAYS = 7;
/** An address gets at most one reminder in this many days. */
export const REMINDER_COOLDOWN_DAYS = 7;

export type ReminderSetting = { enabled: boolean; hours: number };

export const DEFAULT_REMINDER_SETTING: ReminderSetting = { enabled: false, hours: REMINDER_HOURS_DEFAULT };

/** The checkout's checkbox (unticked unless the shopper ticks it). */
export const EMAIL_ABOUT_ORDER_FIELD = "emailAboutOrder";
export const EMAIL_ABOUT_ORDER_LABEL = "Email me about my order";
export const EMAIL_ABOUT_ORDER_HINT = "If you do not finish paying, we may send you one reminder with a link back to your cart.";

/** The admin's form (Site Settings → Emails, Abandoned-checkout reminder). */
export const REMINDER_FIELDS = { enabled: "reminder.enabled", hours: "reminder.hours" } as const;

export const HOURS_MESSAGE = `Enter a whole number of hours from ${REMINDER_HOURS_MIN} to ${REMINDER_HOURS_MAX}.`;

/** A stored value (JSON, possibly edited by hand) as a usable setting: anything odd falls back to off / the default hours. */
export function resolveReminderSetting(stored: unknown): ReminderSetting {
  const v = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const hours = v.hours;
  return {
    enabled: v.enabled === true,
    hours:
      typeof hours === "number" && Number.isInteger(hours) && hours >= REMINDER_HOURS_MIN && hours <= REMINDER_HOURS_MAX
        ? hours
        : REMINDER_HOURS_DEFAULT,
  };
}

/** The answer of the admin's resource route. */
export type ReminderSettingAnswer = { ok: boolean; message: string; fieldErrors?: Record<string, string>; setting?: ReminderSetting };

/** The pages behind the mail's links. */
export const UNSUBSCRIBED_REMINDERS_MESSAGE = "You're unsubscribed. We won't send reminders about unfinished checkouts to this address any more.";
export const BAD_UNSUBSCRIBE_LINK_MESSAGE =
  "This unsubscribe link is not valid. Use the link at the bottom of the reminder mail, or write to us from the contact page.";
export const BAD_RESTORE_LINK_MESSAGE = "This link does not open a cart. Use the button in the reminder mail, or browse the shop.";
