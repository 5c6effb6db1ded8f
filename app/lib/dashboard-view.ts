/**
 * What the browser sees on the admin dashboard: the four figures with their change, the recent
 * activity and what needs attention. Plain types, safe to import anywhere;
 * app/server/insight/dashboard/dashboard.server.ts builds these values and is annotated with them.
 */
import { formatChange, percentChange } from "./date-range";

/** The dashboard compares the last 30 days (today included) with the 30 days before them. */
export const DASHBOARD_DAYS = 30;
/** A paid order not shipped this long after its payment needs attention. */
export const UNSHIPPED_AFTER_DAYS = 2;

/** A figure of the last 30 days beside the 30 days before. */
export type PeriodFigure = { current: number; previous: number };

export type DashboardStats = {
  totalProducts: number;
  activeProducts: number;
  /** Orders that count (paid, neither cancelled nor refunded), ever; revenue is their total. */
  totalOrders: number;
  revenueCents: number;
  /** Products added (created) in each period; of those, the ones active now. */
  productsAdded: PeriodFigure;
  activeProductsAdded: PeriodFigure;
  /** Orders that count and their revenue, by the UTC day they were paid. */
  orders: PeriodFigure;
  revenue: PeriodFigure;
  /** The two periods, as UTC days (YYYY-MM-DD, inclusive). */
  period: { start: string; end: string; previousStart: string; previousEnd: string };
};

export type ActivityKind = "order" | "message" | "low_stock" | "import" | "product";

/** Something that happened in the shop; `at` is ISO 8601; `href` opens it. */
export type DashboardActivity = { kind: ActivityKind; title: string; detail: string; at: string; href: string };

export type AttentionKind = "low_stock" | "unshipped" | "messages" | "refunds" | "refunds_to_confirm" | "mails" | "jobs" | "searches";

/** One thing to act on: how many, what it is, and where to act. `capped`: there are more than `count`. */
export type AttentionItem = { kind: AttentionKind; count: number; capped: boolean; label: string; action: string; href: string };

export type ChangeDirection = "up" | "down" | "flat" | "new";

/** The change of a figure against the previous period: its direction (for the icon) and its words. */
export function describeChange(figure: PeriodFigure): { direction: ChangeDirection; percent: string } {
  const change = percentChange(figure.current, figure.previous);
  const direction: ChangeDirection = change === null ? "new" : change > 0 ? "up" : change < 0 ? "down" : "flat";
  return { direction, percent: formatChange(change) };
}
