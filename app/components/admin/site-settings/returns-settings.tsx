import { Loader2, Save } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import {
  RETURN_WINDOW_MAX_DAYS,
  RETURNS_FIELDS,
  WITHDRAWAL_MAX_DAYS,
  WITHDRAWAL_MIN_DAYS,
  type ReturnsSetting,
  type ReturnsSettingAnswer,
} from "~/lib/returns";

/** Where the card saves (app/routes/admin/site-settings-returns.ts). */
export const RETURNS_SETTINGS_ACTION = "/admin/site-settings/returns";

/**
 * Site Settings → Returns (docs/rules/returns.md): the return window in days after shipping (0
 * turns returns off), and the EU right of withdrawal (off by default) with its period. Saved on its
 * own, like the reminder's card.
 */
export function ReturnsSettings({ setting }: { setting: ReturnsSetting }) {
  const fetcher = useFetcher<ReturnsSettingAnswer>();
  const busy = fetcher.state !== "idle";
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  const windowId = useId();
  const withdrawalId = useId();
  const periodId = useId();

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
          <h2>Returns</h2>
        </CardTitle>
        <CardDescription>
          Shoppers ask for a return from their order's page (signed in, or by the link in their mails) within the window, counted from
          the day the order shipped. You approve, receive and refund it at Returns.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" action={RETURNS_SETTINGS_ACTION} noValidate className="space-y-4" aria-label="Returns">
          <FormField
            id={windowId}
            label="Return window (days)"
            error={errors[RETURNS_FIELDS.returnWindowDays]}
            hint={`A whole number from 0 to ${RETURN_WINDOW_MAX_DAYS}; 0 turns returns off.`}
          >
            <Input
              id={windowId}
              name={RETURNS_FIELDS.returnWindowDays}
              type="number"
              inputMode="numeric"
              min={0}
              max={RETURN_WINDOW_MAX_DAYS}
              step="1"
              className="w-32"
              defaultValue={String(setting.returnWindowDays)}
              {...fieldAria(windowId, errors[RETURNS_FIELDS.returnWindowDays], true)}
            />
          </FormField>
          <div className="flex items-start gap-3">
            <input
              id={withdrawalId}
              type="checkbox"
              name={RETURNS_FIELDS.withdrawalEnabled}
              defaultChecked={setting.withdrawalEnabled}
              className="mt-0.5 size-4 shrink-0 accent-primary"
            />
            <div className="grid gap-1">
              <label htmlFor={withdrawalId} className="text-sm font-medium leading-none">
                Right of withdrawal (EU)
              </label>
              <p className="text-sm text-muted-foreground">
                Every order page shows 'Withdraw from contract here' during the period, and the footer links to a page where a guest
                gets their order's link by mail.
              </p>
            </div>
          </div>
          <FormField
            id={periodId}
            label="Withdrawal period (days)"
            error={errors[RETURNS_FIELDS.withdrawalDays]}
            hint={`Days after delivery (or shipping, when no delivery is recorded), from ${WITHDRAWAL_MIN_DAYS} to ${WITHDRAWAL_MAX_DAYS}.`}
          >
            <Input
              id={periodId}
              name={RETURNS_FIELDS.withdrawalDays}
              type="number"
              inputMode="numeric"
              min={WITHDRAWAL_MIN_DAYS}
              max={WITHDRAWAL_MAX_DAYS}
              step="1"
              className="w-32"
              defaultValue={String(setting.withdrawalDays)}
              {...fieldAria(periodId, errors[RETURNS_FIELDS.withdrawalDays], true)}
            />
          </FormField>
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save returns
          </Button>
          <div role="status" className="text-sm empty:hidden">
            {fetcher.state === "idle" && fetcher.data ? fetcher.data.message : null}
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
