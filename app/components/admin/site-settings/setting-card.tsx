import { Loader2, Save } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";

/** What a setting's own route answers a save with. */
type SettingAnswer = { ok: boolean; message: string; fieldErrors?: Record<string, string> };

/**
 * A Site Settings card saved on its own route (the reminder, returns, prices): its title and
 * description, the fields, a Save button, and the answer both as a toast and in a status line,
 * so a screen reader hears it where the button is.
 */
export function SettingCard({
  title,
  description,
  action,
  saveLabel,
  children,
}: {
  title: string;
  description: ReactNode;
  action: string;
  saveLabel: string;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const fetcher = useFetcher<SettingAnswer>();
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  const errors = answer && !answer.ok ? (answer.fieldErrors ?? {}) : {};

  const announced = useRef<unknown>(null);
  useEffect(() => {
    if (!answer || fetcher.state !== "idle" || announced.current === answer) return;
    announced.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [answer, fetcher.state]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {/* noValidate: the server's message shows beside the field, in the shop's words. */}
        <fetcher.Form method="post" action={action} noValidate className="space-y-4" aria-label={title}>
          {children(errors)}
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            {saveLabel}
          </Button>
          <div role="status" className="text-sm empty:hidden">
            {fetcher.state === "idle" && answer ? answer.message : null}
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}

/** An on/off setting: the box, its label, an optional line saying what it does, and its error. */
export function CheckboxSetting({
  id,
  name,
  defaultChecked,
  label,
  hint,
  error,
}: {
  id: string;
  name: string;
  defaultChecked: boolean;
  label: string;
  hint?: string;
  error?: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" name={name} defaultChecked={defaultChecked} className="mt-0.5 size-4 shrink-0 accent-primary" {...fieldAria(id, error)} />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium leading-none">
          {label}
        </label>
        {hint ? <p className="text-sm text-muted-foreground">{hint}</p> : null}
        {error ? (
          <p id={`${id}-error`} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A whole number of hours or days between `min` and `max`, with its hint and error. */
export function WholeNumberSetting(p: { id: string; name: string; label: string; hint: string; min: number; max: number; defaultValue: number; error?: string }) {
  return (
    <FormField id={p.id} label={p.label} error={p.error} hint={p.hint}>
      <Input
        id={p.id}
        name={p.name}
        type="number"
        inputMode="numeric"
        min={p.min}
        max={p.max}
        step="1"
        className="w-32"
        defaultValue={String(p.defaultValue)}
        {...fieldAria(p.id, p.error, true)}
      />
    </FormField>
  );
}
