/**
 * The capacity model of docs/scaling.md: a peak hour's traffic times the measured cost of each
 * kind of request (the bench's `costs` part) gives the app servers' CPU and the database's
 * statement time per second. Pure arithmetic, so the same sums can be redone with another
 * machine's costs.
 */

/** Per request, from one bench run: CPU of the app server process and statement time in PostgreSQL, in ms; bytes as sent (gzip). */
export type MeasuredCosts = {
  renderedHtmlCpuMs: number;
  renderedDataCpuMs: number;
  cachedHtmlCpuMs: number;
  cachedDataCpuMs: number;
  quoteCpuMs: number;
  /** A whole order: create the checkout, pay on the provider's form, verify. */
  checkoutCpuMs: number;
  renderedDbMs: number;
  cachedDbMs: number;
  quoteDbMs: number;
  checkoutDbMs: number;
  htmlBytes: number;
  dataBytes: number;
};

export type PeakHour = {
  visitorsPerHour: number;
  ordersPerHour: number;
  /** The first is an HTML page, the others client-side navigations (`.data` requests). */
  pageViewsPerVisitor: number;
  /** Page views without any cookie: the only ones a CDN or the page cache may share. */
  anonymousShare: number;
  /** Of the anonymous page views, those the CDN answers (0 without a CDN). */
  cdnHitRatio: number;
  /** Of the anonymous page views that reach the app, those its page cache answers. */
  appCacheHitRatio: number;
  /** Cart and checkout page quotes per order placed, abandoned carts' included. */
  quotesPerOrder: number;
  /** Capacity provisioned per unit of measured peak load (2: servers at half their CPU at the peak). */
  headroom: number;
};

/** The sale-day peak docs/scaling.md works through. */
export const SALE_DAY: PeakHour = {
  visitorsPerHour: 50_000,
  ordersPerHour: 3_000,
  pageViewsPerVisitor: 6,
  anonymousShare: 0.8,
  cdnHitRatio: 0.9,
  appCacheHitRatio: 0,
  quotesPerOrder: 10,
  headroom: 2,
};

/** The shop's DATABASE_POOL_SIZE default. */
export const DEFAULT_POOL = 10;

export type Line = { what: string; perSecond: number; cpuMsPerSec: number; dbMsPerSec: number; originBytesPerSec: number };

export type Capacity = {
  input: PeakHour;
  lines: Line[];
  /** Cores the app servers' processes keep busy at the peak (CPU ms per second ÷ 1000). */
  appCores: number;
  /** Node processes needed: one core each, times the headroom, rounded up. */
  appServers: number;
  /** Average connections inside a statement at the peak (statement ms per second ÷ 1000, Little's law). */
  dbBusyConnections: number;
  /** Per app server: the default, or more when four times the headroomed busy connections need it. */
  poolPerServer: number;
  originMbitPerSec: number;
  totalMbitPerSec: number;
};

export function capacity(costs: MeasuredCosts, peak: PeakHour): Capacity {
  const pageViews = (peak.visitorsPerHour * peak.pageViewsPerVisitor) / 3600;
  const htmlShare = 1 / peak.pageViewsPerVisitor;
  const mix = (html: number, data: number) => htmlShare * html + (1 - htmlShare) * data;
  const pageBytes = mix(costs.htmlBytes, costs.dataBytes);
  const anonymous = pageViews * peak.anonymousShare;
  const atOrigin = anonymous * (1 - peak.cdnHitRatio);
  const cached = atOrigin * peak.appCacheHitRatio;
  // Signed-in page views are counted as rendered: a customer's product page is their own, and the
  // shared renderings of the others are left as headroom.
  const rendered = atOrigin - cached + pageViews * (1 - peak.anonymousShare);
  const quotes = (peak.ordersPerHour * peak.quotesPerOrder) / 3600;
  const orders = peak.ordersPerHour / 3600;
  const lines: Line[] = [
    { what: "pages rendered", perSecond: rendered, cpuMsPerSec: rendered * mix(costs.renderedHtmlCpuMs, costs.renderedDataCpuMs), dbMsPerSec: rendered * costs.renderedDbMs, originBytesPerSec: rendered * pageBytes },
    { what: "pages from the app's page cache", perSecond: cached, cpuMsPerSec: cached * mix(costs.cachedHtmlCpuMs, costs.cachedDataCpuMs), dbMsPerSec: cached * costs.cachedDbMs, originBytesPerSec: cached * pageBytes },
    { what: "pages from the CDN", perSecond: anonymous - atOrigin, cpuMsPerSec: 0, dbMsPerSec: 0, originBytesPerSec: 0 },
    { what: "cart quotes", perSecond: quotes, cpuMsPerSec: quotes * costs.quoteCpuMs, dbMsPerSec: quotes * costs.quoteDbMs, originBytesPerSec: 0 },
    { what: "orders placed", perSecond: orders, cpuMsPerSec: orders * costs.checkoutCpuMs, dbMsPerSec: orders * costs.checkoutDbMs, originBytesPerSec: 0 },
  ];
  const sum = (k: "cpuMsPerSec" | "dbMsPerSec" | "originBytesPerSec") => lines.reduce((s, l) => s + l[k], 0);
  const appCores = sum("cpuMsPerSec") / 1000;
  const appServers = Math.max(1, Math.ceil(appCores * peak.headroom));
  const dbBusyConnections = sum("dbMsPerSec") / 1000;
  const poolPerServer = Math.max(DEFAULT_POOL, Math.ceil((4 * dbBusyConnections * peak.headroom) / appServers));
  return {
    input: peak,
    lines,
    appCores,
    appServers,
    dbBusyConnections,
    poolPerServer,
    originMbitPerSec: (sum("originBytesPerSec") * 8) / 1e6,
    totalMbitPerSec: (pageViews * pageBytes * 8) / 1e6,
  };
}

export const saleDayExample = (costs: MeasuredCosts) => capacity(costs, SALE_DAY);
