import type { ReactNode } from "react";
import { Label } from "~/components/ui/label";

/** A labelled control with its hint and its message beside it (ids: `${id}-hint`, `${id}-error`). */
export function Field({
  id,
  label,
  error,
  hint,
  children,
  className,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className ?? "space-y-2"}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** aria-invalid and aria-describedby for a control of a Field. */
export function described(id: string, error?: string, hint = false) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined };
}

/** Errors for one field removed when it changes (the others stay until the next save). */
export function without(errors: Record<string, string>, key: string): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) if (k !== key && !k.startsWith(`${key}.`)) next[k] = v;
  return next;
}

/** Where every write of the screen goes. */
export const SHIPPING_ACTION = "/admin/settings/shipping";
