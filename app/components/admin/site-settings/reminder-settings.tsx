import { Loader2, Save } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import {
  REMINDER_FIELDS,
  REMINDER_HOURS_MAX,
  REMINDER_HOURS_MIN,
  REMINDER_MAX_AGE_DAYS,
  type ReminderSetting,
  type ReminderSettingAnswer,
} from "~/lib/abandoned-checkout";

/** Where the card saves (app/routes/admin/site-settings-reminder.ts). */
export const REMINDER_SETTINGS_ACTION = "/admin/site-settings/reminder";

/**
 * Site Settings → Emails, 'Abandoned-checkout reminder': on or off (off by default) and how many
 * hours after an unpaid checkout it goes out. Saved on its own, like each mail above it; the
 * mail's subject and intro are edited with the other mails ('Abandoned-checkout reminder').
 */
export function ReminderSettings({ setting }: { setting: ReminderSetting }) {
  const fetcher = useFetcher<ReminderSettingAnswer>();
  const busy = fetcher.state !== "idle";
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  const enabledId = useId();
  const hoursId = useId();

  const announced = useRef<unknown>(null);
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle" || announced.current === answer) return;
    announced.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [fetcher.data, fetcher.state]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Abandoned-checkout reminder</h2>
        </CardTitle>
        <CardDescription>
          One mail, some hours after a checkout that was never paid, with the items and a link back to a cart holding them. Only to
          shoppers who ticked 'Email me about my order' at checkout or subscribe to the newsletter, never twice to one address within a
          week, and never after they unsubscribe or pay. Checkouts older than {REMINDER_MAX_AGE_DAYS} days, or placed while the reminder
          was off, get none.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the server's message shows beside the field, in the shop's words. */}
        <fetcher.Form method="post" action={REMINDER_SETTINGS_ACTION} noValidate className="space-y-4" aria-label="Abandoned-checkout reminder">
          <div className="flex items-start gap-3">
            <input
              id={enabledId}
              type="checkbox"
              name={REMINDER_FIELDS.enabled}
              defaultChecked={setting.enabled}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              {...fieldAria(enabledId, errors[REMINDER_FIELDS.enabled])}
            />
            <div className="grid gap-1">
              <label htmlFor={enabledId} className="text-sm font-medium leading-none">
                Send the abandoned-checkout reminder
              </label>
              {errors[REMINDER_FIELDS.enabled] ? (
                <p id={`${enabledId}-error`} className="text-sm text-destructive">
                  {errors[REMINDER_FIELDS.enabled]}
                </p>
              ) : null}
            </div>
          </div>
          <FormField
            id={hoursId}
            label="Hours after the checkout"
            error={errors[REMINDER_FIELDS.hours]}
            hint={`A whole number from ${REMINDER_HOURS_MIN} to ${REMINDER_HOURS_MAX}. The shop looks for checkouts due every 10 minutes.`}
          >
            <Input
              id={hoursId}
              name={REMINDER_FIELDS.hours}
              type="number"
              inputMode="numeric"
              min={REMINDER_HOURS_MIN}
              max={REMINDER_HOURS_MAX}
              step="1"
              className="w-32"
              defaultValue={String(setting.hours)}
              {...fieldAria(hoursId, errors[REMINDER_FIELDS.hours], true)}
            />
          </FormField>
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save reminder
          </Button>
          <div role="status" className="text-sm empty:hidden">
            {fetcher.state === "idle" && fetcher.data ? fetcher.data.message : null}
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
