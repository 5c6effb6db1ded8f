import { useEffect, type ComponentProps } from "react";
import { toast } from "~/lib/toast";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/hooks/use-hydrated";

/**
 * Tells the action that this browser runs the page's script, so it can answer with data (and a
 * toast) instead of a plain redirect. Without JavaScript the field is empty and forms still work.
 */
export function EnhancedField() {
  const hydrated = useHydrated();
  return <input type="hidden" name="js" value={hydrated ? "1" : ""} />;
}

export type ToastData = { title: string; description?: string; kind: "success" | "error" };

/** Shows the toast an action returned, once per answer. */
export function useActionToast(data: object | null | undefined) {
  useEffect(() => {
    const t = (data as { toast?: ToastData } | null | undefined)?.toast;
    if (!t) return;
    if (t.kind === "error") toast.error(t.title, { description: t.description });
    else toast.success(t.title, { description: t.description });
  }, [data]);
}

type FieldProps = ComponentProps<typeof Input> & { label: string; name: string; errors?: string[]; hint?: string };

/** A labelled input with its hint and errors announced to screen readers. */
export function Field({ label, name, errors, hint, id, className, ...input }: FieldProps) {
  const fieldId = id ?? name;
  const describedBy = [hint ? `${fieldId}-hint` : null, errors?.length ? `${fieldId}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={fieldId}>{label}</Label>
      <Input id={fieldId} name={name} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy || undefined} {...input} />
      {hint ? (
        <p id={`${fieldId}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <ul id={`${fieldId}-error`} className="text-sm text-destructive">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A password to choose and its confirmation ('Confirm <label>'), as the confirmation and reset pages ask for it. */
export function NewPasswordFields({ label, hint, errors }: { label: string; hint: string; errors?: Partial<Record<string, string[]>> }) {
  return (
    <>
      <Field label={label} name="password" type="password" autoComplete="new-password" required hint={hint} errors={errors?.password} />
      <Field
        label={`Confirm ${label.toLowerCase()}`}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        errors={errors?.confirmPassword}
      />
    </>
  );
}

/** The form-level message, visible without JavaScript (the toast needs it). */
export function FormAlert({ title, children, tone = "error" }: { title: string; children?: React.ReactNode; tone?: "error" | "success" }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-3 py-2 text-sm",
        tone === "error" ? "border-destructive/40 bg-destructive/5 text-destructive" : "border-success/40 bg-success/5",
      )}
    >
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1">{children}</div> : null}
    </div>
  );
}
