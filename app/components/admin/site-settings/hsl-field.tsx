import { useId } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { isValidHsl } from "~/lib/site-settings-rules";

/** A theme colour typed as hsl() text, with a swatch that follows the typing. */
export function HslField({
  name,
  label,
  value,
  onChange,
  serverError,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  serverError?: string;
}) {
  const id = useId();
  const valid = isValidHsl(value);
  const message = serverError ?? (valid ? null : "Enter a colour like hsl(220, 70%, 50%)");
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-3">
        <Input
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          placeholder="hsl(220, 70%, 50%)"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={!valid || Boolean(serverError)}
          aria-describedby={message ? `${id}-error` : undefined}
          className="font-mono"
        />
        <span
          data-testid={`${name}-swatch`}
          role="img"
          aria-label={valid ? `Preview of ${value.trim()}` : "No preview: not a valid colour"}
          className="size-9 shrink-0 rounded-md border bg-[repeating-linear-gradient(45deg,transparent_0_4px,var(--muted)_4px_8px)]"
          // Only a validated hsl() value reaches the style, so nothing else can enter the CSS.
          style={valid ? { background: value.trim() } : undefined}
        />
      </div>
      {message ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role={serverError ? "alert" : undefined}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
