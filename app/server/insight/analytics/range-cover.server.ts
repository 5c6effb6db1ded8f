// Which roll-up rows sum to a range of UTC days: whole months from a monthly roll-up, the rest
// from its daily one (docs/decisions/0019). Used by the sales and search figures.
import { sql } from "drizzle-orm";
import { addDays, parseDay, type DayRange } from "~/lib/date-range";

/**
 * The range cut into whole calendar months (read from the monthly roll-up) and the days before
 * and after them (read from the daily one).
 */
export function splitIntoMonths(range: DayRange): { months: [string, string] | null; days: [string, string][] } {
  const start = new Date(parseDay(range.start)!);
  const end = new Date(parseDay(range.end)!);
  const firstWhole =
    start.getUTCDate() === 1 ? range.start : isoDay(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const endIsMonthEnd = addDays(range.end, 1).endsWith("-01");
  const lastWholeEnd = endIsMonthEnd ? range.end : isoDay(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 0));
  if (firstWhole > lastWholeEnd) return { months: null, days: [[range.start, range.end]] };
  const lastWholeMonth = `${lastWholeEnd.slice(0, 7)}-01`;
  const days: [string, string][] = [];
  if (range.start < firstWhole) days.push([range.start, addDays(firstWhole, -1)]);
  if (lastWholeEnd < range.end) days.push([addDays(lastWholeEnd, 1), range.end]);
  return { months: [firstWhole, lastWholeMonth], days };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const lastDayOfMonth = (month: string) => addDays(isoDay(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)), -1);

/**
 * The fewest roll-up rows that sum to the range: whole months from the monthly roll-up, and
 * each partial month either as its days or, when it covers most of its month, as the month less
 * the days outside the range (a 12-month range reads at most about 15 days per end).
 */
export function rangeCover(range: DayRange): { months: string[]; addDays: [string, string][]; subtractDays: [string, string][] } {
  const { months: whole, days } = splitIntoMonths(range);
  const months: string[] = [];
  if (whole) for (let m = whole[0]; m <= whole[1]; m = addDays(lastDayOfMonth(m), 1)) months.push(m);
  const add: [string, string][] = [];
  const subtract: [string, string][] = [];
  // A span of days inside one month (a range within a month, or one end of a longer range).
  const cover = ([a, b]: [string, string]) => {
    const month = monthOf(a);
    const last = lastDayOfMonth(month);
    const inside = daysBetween(a, b) + 1;
    const length = daysBetween(month, last) + 1;
    if (inside <= length - inside) return add.push([a, b]);
    months.push(month);
    if (a > month) subtract.push([month, addDays(a, -1)]);
    if (b < last) subtract.push([addDays(b, 1), last]);
  };
  for (const [a, b] of days) {
    // A range shorter than a month can still cross into the next one: one span per month.
    if (monthOf(a) === monthOf(b)) cover([a, b]);
    else {
      cover([a, lastDayOfMonth(monthOf(a))]);
      cover([monthOf(b), b]);
    }
  }
  return { months: [...new Set(months)].sort(), addDays: add, subtractDays: subtract };
}

const daysBetween = (a: string, b: string) => Math.round((parseDay(b)! - parseDay(a)!) / 86_400_000);

/** A condition on `column` true for the listed day spans (false when there are none). */
export function inSpans(column: ReturnType<typeof sql.raw>, spans: [string, string][]) {
  if (spans.length === 0) return sql`false`;
  return sql.join(
    spans.map(([a, b]) => sql`${column} between ${a}::date and ${b}::date`),
    sql` or `,
  );
}

export const dateArray = (days: string[]) => sql`${`{${days.join(",")}}`}::date[]`;

