import type { ReactNode } from "react";
import { Label } from "./label";

/**
 * A labelled control with its hint and its error message beside it. The control is the child and
 * carries `id`; the hint is `${id}-hint` and the message `${id}-error` (wire them to the control
 * with `fieldAria`). `className` replaces the wrapper's default spacing.
 */
export function FormField({
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

/** aria-invalid and aria-describedby for the control of a FormField: its hint (when `hint`) and its error. */
export function fieldAria(id: string, error?: string, hint = false) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined };
}
