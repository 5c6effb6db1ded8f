// The Analytics chart's bars (gross, refunds, net): the range's days summed per day, week or month (chartBucket in
// ./date-range picks which, so a long range stays readable). Weeks run Monday to Sunday and
// months are calendar months; the first and last bars are cut to the range.
import type { ChartBucket, ChartPoint } from "./analytics-view";
import { parseDay } from "./date-range";

/** One day's gross (revenue), its refunds (counted on the day each succeeded) and paid orders. */
export type DaySales = { day: string; revenueCents: number; orders: number; refundedCents?: number };

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const monthYear = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

/** The first day of the bar a day falls in. */
function bucketStart(day: string, bucket: ChartBucket): string {
  if (bucket === "day") return day;
  if (bucket === "month") return `${day.slice(0, 7)}-01`;
  const ms = parseDay(day)!;
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return new Date(ms - weekday * 86_400_000).toISOString().slice(0, 10);
}

function labelOf(start: string, end: string, bucket: ChartBucket): string {
  const show = (d: string) => shortDay.format(new Date(`${d}T00:00:00Z`));
  if (bucket === "month") return monthYear.format(new Date(`${start}T00:00:00Z`));
  return start === end ? show(start) : `${show(start)} – ${show(end)}`;
}

/** Every day of the range in order (zeros included) → one point per bar, cut to the range. */
export function bucketSales(days: DaySales[], bucket: ChartBucket): ChartPoint[] {
  const points: ChartPoint[] = [];
  let key = "";
  for (const d of days) {
    const k = bucketStart(d.day, bucket);
    if (k !== key) {
      key = k;
      points.push({ start: d.day, end: d.day, label: "", revenueCents: 0, refundedCents: 0, netCents: 0, orders: 0 });
    }
    const p = points[points.length - 1]!;
    p.end = d.day;
    p.revenueCents += d.revenueCents;
    p.refundedCents += d.refundedCents ?? 0;
    p.netCents += d.revenueCents - (d.refundedCents ?? 0);
    p.orders += d.orders;
  }
  for (const p of points) p.label = labelOf(p.start, p.end, bucket);
  return points;
}
