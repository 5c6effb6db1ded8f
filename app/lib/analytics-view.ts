/**
 * What the admin's Analytics page shows (docs/rules/analytics.md). Plain types, safe to import
 * anywhere; app/server/insight/analytics/figures.server.ts builds them. Money is integer cents, days
 * are UTC days written YYYY-MM-DD.
 */
import type { DateRange } from "./date-range";

/** A figure of the range beside the same figure of the previous period. */
export type ComparedFigure = {
  current: number | null;
  previous: number | null;
  /** Change in percent (one decimal); null when the previous period had nothing to compare with. */
  change: number | null;
};

export type AnalyticsFigures = {
  revenueCents: ComparedFigure;
  orders: ComparedFigure;
  /** Null when there were no orders. */
  averageOrderCents: ComparedFigure;
  units: ComparedFigure;
  newCustomers: ComparedFigure;
  returningCustomers: ComparedFigure;
  /** The order ledger's refunds of orders that count, each on the UTC day it succeeded. */
  refundedCents: ComparedFigure;
  /** Revenue (gross) less those refunds. */
  netSalesCents: ComparedFigure;
};

export type ChartBucket = "day" | "week" | "month";

/** One bar of the chart: a day, a week (Monday to Sunday) or a calendar month, cut to the range. */
export type ChartPoint = {
  start: string;
  end: string;
  /** "Mar 3", "Mar 3 – Mar 9", "Mar 2026" */
  label: string;
  /** Gross: the orders paid in the bar, whatever happened to them later. */
  revenueCents: number;
  /** Refunds that succeeded in the bar (a paid order's cancellation included), whichever day the order was paid. */
  refundedCents: number;
  /** Gross less refunds: below zero when more went back than came in. */
  netCents: number;
  orders: number;
};

export type SalesChart = { bucket: ChartBucket; points: ChartPoint[] };

export type TopProduct = { productId: string; name: string; category: string; units: number; revenueCents: number };
export type TopCategory = { category: string; units: number; revenueCents: number };

/**
 * Visitors counted a minute from one network address (an IPv6 address by its /64), however many
 * browsers it claims to be: a script varying its user agent cannot invent a crowd
 * (docs/rules/analytics.md, Visits).
 */
export const VISITORS_PER_ADDRESS_PER_MINUTE = 20;

export type FunnelStep = {
  key: "visitors" | "productViewers" | "cartAdders" | "checkoutStarters" | "paidOrders";
  label: string;
  count: number;
  /**
   * Percent lost since the step before (one decimal): 40 means 40% did not go on. Null for the
   * first step and when the step before had nobody; negative when more reached this step.
   */
  dropPercent: number | null;
};

export type SearchTermCount = { term: string; count: number };

export type AnalyticsView = {
  range: DateRange;
  figures: AnalyticsFigures;
  chart: SalesChart;
  topProducts: { byRevenue: TopProduct[]; byUnits: TopProduct[] };
  topCategories: { byRevenue: TopCategory[]; byUnits: TopCategory[] };
  funnel: FunnelStep[];
  searches: { top: SearchTermCount[]; empty: SearchTermCount[] };
};
