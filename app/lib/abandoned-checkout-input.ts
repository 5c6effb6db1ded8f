import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { HOURS_MESSAGE, REMINDER_FIELDS, REMINDER_HOURS_MAX, REMINDER_HOURS_MIN, type ReminderSetting } from "./abandoned-checkout";

/**
 * The admin's reminder form (Site Settings → Emails): the checkbox posts "on" when ticked and
 * nothing otherwise; the hours are a whole number from 1 to 72, typed as digits.
 */
export const ReminderSettingInput = z.object({
  enabled: z.enum(["on", "true", ""], { error: "Tick the box to turn the reminder on, or leave it empty to turn it off." }).transform((v) => v !== ""),
  hours: z
    .string({ error: HOURS_MESSAGE })
    .trim()
    .regex(/^\d{1,3}$/, HOURS_MESSAGE)
    .transform(Number)
    .pipe(z.number().int().min(REMINDER_HOURS_MIN, HOURS_MESSAGE).max(REMINDER_HOURS_MAX, HOURS_MESSAGE)),
});

export type ReminderFormResult = { ok: true; value: ReminderSetting } | { ok: false; message: string; fieldErrors: Record<string, string> };

/** Reads the form; each message names what to change, beside its field. */
export function parseReminderForm(form: FormData): ReminderFormResult {
  const enabled = form.get(REMINDER_FIELDS.enabled);
  const hours = form.get(REMINDER_FIELDS.hours);
  const parsed = ReminderSettingInput.safeParse({ enabled: enabled ?? "", hours: hours ?? "" });
  if (parsed.success) return { ok: true, value: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] === "enabled" ? REMINDER_FIELDS.enabled : REMINDER_FIELDS.hours;
    fieldErrors[key] ??= issue.message;
  }
  return { ok: false, message: Object.values(fieldErrors)[0]!, fieldErrors };
}
