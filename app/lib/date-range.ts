// The date ranges of the admin's Analytics and Reports pages (docs/rules/analytics.md, Days and
// ranges). Days are UTC calendar days written YYYY-MM-DD; a range includes both ends.

export const RANGE_PRESETS = ["7d", "30d", "90d", "this-month", "last-month", "this-year", "custom"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_LABELS: Record<RangePreset, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "this-month": "This month",
  "last-month": "Last month",
  "this-year": "This year",
  custom: "Custom",
};

export const DEFAULT_PRESET = "30d" satisfies RangePreset;
/** Longer custom ranges are refused: five years of days (leap days included). */
export const MAX_RANGE_DAYS = 5 * 366;

export type DayRange = {
  /** First and last day, inclusive. */
  start: string;
  end: string;
  days: number;
};

export type DateRange = DayRange & {
  preset: RangePreset;
  /** The period of the same length that ends the day before `start`. */
  previous: DayRange;
};

export type RangeChoice = { range: DateRange; error: string | null };

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD string that names a real calendar day, as its UTC midnight in ms; else null. */
export function parseDay(value: string | null | undefined): number | null {
  const m = ISO_DAY.exec((value ?? "").trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1970 || y > 9999) return null;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // 2026-02-30 rolls over to March: not a real day.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return formatDay(parseDay(day)! + n * DAY_MS);
}

/** The days of a range, first to last. */
export function daysOf(range: DayRange): string[] {
  const first = parseDay(range.start)!;
  return Array.from({ length: range.days }, (_, i) => formatDay(first + i * DAY_MS));
}

function dayRange(startMs: number, endMs: number): DayRange {
  return { start: formatDay(startMs), end: formatDay(endMs), days: Math.round((endMs - startMs) / DAY_MS) + 1 };
}

function withPrevious(preset: RangePreset, startMs: number, endMs: number): DateRange {
  const current = dayRange(startMs, endMs);
  const prevEnd = startMs - DAY_MS;
  const prevStart = prevEnd - (current.days - 1) * DAY_MS;
  return { ...current, preset, previous: dayRange(prevStart, prevEnd) };
}

function presetRange(preset: Exclude<RangePreset, "custom">, todayMs: number): DateRange {
  const today = new Date(todayMs);
  const y = today.getUTCFullYear();
  const mo = today.getUTCMonth();
  switch (preset) {
    case "7d":
      return withPrevious(preset, todayMs - 6 * DAY_MS, todayMs);
    case "30d":
      return withPrevious(preset, todayMs - 29 * DAY_MS, todayMs);
    case "90d":
      return withPrevious(preset, todayMs - 89 * DAY_MS, todayMs);
    case "this-month":
      return withPrevious(preset, Date.UTC(y, mo, 1), todayMs);
    case "last-month":
      return withPrevious(preset, Date.UTC(y, mo - 1, 1), Date.UTC(y, mo, 0));
    case "this-year":
      return withPrevious(preset, Date.UTC(y, 0, 1), todayMs);
  }
}

function isPreset(value: string | null): value is RangePreset {
  return value !== null && (RANGE_PRESETS as readonly string[]).includes(value);
}

/**
 * The range a page's query string asks for: `?range=<preset>`, or `?range=custom&from=…&to=…`
 * (or just from/to). A bad request gives the default range and a message to show, never a throw.
 */
export function readDateRange(params: URLSearchParams, now: Date = new Date()): RangeChoice {
  const todayMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const fallback = (error: string | null): RangeChoice => ({ range: presetRange(DEFAULT_PRESET, todayMs), error });
  const asked = params.get("range");
  const from = params.get("from");
  const to = params.get("to");
  const custom = asked === "custom" || (asked === null && (from !== null || to !== null));
  if (!custom) {
    if (asked === null || asked === "") return fallback(null);
    if (!isPreset(asked)) return fallback("That date range is not one we know. Showing the last 30 days.");
    const preset = presetRange(asked as Exclude<RangePreset, "custom">, todayMs);
    // The picker sends its dates with the preset: dates edited away from the preset's mean "custom".
    const edited = (from !== null && from !== preset.start) || (to !== null && to !== preset.end);
    if (!edited) return { range: preset, error: null };
  }
  const startMs = parseDay(from);
  const endMs = parseDay(to);
  if (startMs === null || endMs === null) {
    return fallback("Enter both dates as real days (YYYY-MM-DD). Showing the last 30 days.");
  }
  if (endMs < startMs) return fallback("The end date is before the start date. Showing the last 30 days.");
  if ((endMs - startMs) / DAY_MS + 1 > MAX_RANGE_DAYS) {
    return fallback("A range can be at most 5 years long. Showing the last 30 days.");
  }
  return { range: withPrevious("custom", startMs, endMs), error: null };
}

/** The query string that asks for a range (for links: exports, the other page, paging). */
export function rangeSearch(range: DateRange): string {
  return range.preset === "custom"
    ? `range=custom&from=${range.start}&to=${range.end}`
    : `range=${range.preset}`;
}

/** Change from the previous period in percent, rounded to one decimal; null when there was nothing before. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** "+12.5%", "−3%", "0%", or "new" when the previous period had nothing. */
export function formatChange(change: number | null): string {
  if (change === null) return "new";
  if (change === 0) return "0%";
  return `${change > 0 ? "+" : "−"}${Math.abs(change).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;
}

/** Long ranges are charted per week or month so the chart stays readable. */
export function chartBucket(range: DayRange): "day" | "week" | "month" {
  if (range.days <= 92) return "day";
  if (range.days <= 366) return "week";
  return "month";
}
