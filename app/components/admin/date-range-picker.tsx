import { CalendarRange } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { RANGE_LABELS, RANGE_PRESETS, type DateRange } from "~/lib/date-range";

const longDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "Mar 1, 2026 – Mar 15, 2026" */
export function describeDays(range: { start: string; end: string }) {
  const show = (d: string) => longDay.format(new Date(`${d}T00:00:00Z`));
  return range.start === range.end ? show(range.start) : `${show(range.start)} – ${show(range.end)}`;
}

/**
 * The range chooser of the Analytics and Reports pages: a GET form, so it works without
 * JavaScript and every range has a URL. The dates are used when "Custom" is chosen (or when
 * only dates are sent); a bad range comes back as `error` with the default range.
 */
export function DateRangePicker({
  range,
  error,
  hidden = {},
}: {
  range: DateRange;
  error: string | null;
  /** Other query parameters the page keeps (e.g. which report). */
  hidden?: Record<string, string>;
}) {
  return (
    <div className="grid gap-2">
      {/* Keyed by what it shows: its fields are uncontrolled, so after a navigation to another
          range (or to the default after a bad one) they must start again from the new values. */}
      <Form
        key={`${range.preset} ${range.start} ${range.end} ${error ?? ""}`}
        method="get"
        aria-label="Date range"
        className="flex flex-wrap items-end gap-3"
      >
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="grid gap-1.5">
          <Label htmlFor="range-preset">Date range</Label>
          <NativeSelect id="range-preset" name="range" defaultValue={range.preset}>
            {RANGE_PRESETS.map((p) => (
              <option key={p} value={p}>
                {RANGE_LABELS[p]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="range-from">From</Label>
          <Input id="range-from" name="from" type="date" defaultValue={range.start} className="w-40" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="range-to">To</Label>
          <Input id="range-to" name="to" type="date" defaultValue={range.end} className="w-40" />
        </div>
        <Button type="submit" variant="outline">
          <CalendarRange aria-hidden="true" /> Apply
        </Button>
      </Form>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground">
        {describeDays(range)} <span aria-hidden="true">·</span> compared with {describeDays(range.previous)} (UTC days)
      </p>
    </div>
  );
}
