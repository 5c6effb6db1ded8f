import { describe, expect, it } from "vitest";
import { capacity, SALE_DAY, type MeasuredCosts } from "../../scripts/bench/capacity-model";
import { dataUrl } from "../../scripts/bench/costs";

/** Round figures, so every sum below can be checked by hand. */
const COSTS: MeasuredCosts = {
  renderedHtmlCpuMs: 12,
  renderedDataCpuMs: 6,
  cachedHtmlCpuMs: 1,
  cachedDataCpuMs: 1,
  quoteCpuMs: 4,
  checkoutCpuMs: 60,
  renderedDbMs: 2,
  cachedDbMs: 0.5,
  quoteDbMs: 1,
  checkoutDbMs: 30,
  htmlBytes: 12_000,
  dataBytes: 6_000,
};

describe("capacity model (docs/scaling.md)", () => {
  it("works the sale-day peak through as the doc does", () => {
    const c = capacity(COSTS, SALE_DAY);
    const line = (what: string) => c.lines.find((l) => l.what === what)!;
    // 50,000 visitors × 6 page views / 3600 s = 83.3 page views/s; 80 % anonymous, 90 % of those at the CDN.
    expect(line("pages from the CDN").perSecond).toBeCloseTo(60, 6);
    // 6.67 anonymous misses + 16.67 signed in, all rendered; one page in six is HTML (12 ms), the rest .data (6 ms).
    expect(line("pages rendered").perSecond).toBeCloseTo(23.333, 3);
    expect(line("pages rendered").cpuMsPerSec).toBeCloseTo(23.333 * 7, 2);
    expect(line("cart quotes").perSecond).toBeCloseTo(8.333, 3);
    expect(line("orders placed").cpuMsPerSec).toBeCloseTo(50, 6);
    // 163.3 + 33.3 + 50 ms of CPU per second = 0.247 cores, ×2 headroom → 1 server.
    expect(c.appCores).toBeCloseTo(0.2467, 3);
    expect(c.appServers).toBe(1);
    // 46.7 + 8.3 + 25 ms of statements per second.
    expect(c.dbBusyConnections).toBeCloseTo(0.08, 3);
    expect(c.poolPerServer).toBe(10);
  });

  it("needs more servers, and sends every page to them, without a CDN", () => {
    const c = capacity(COSTS, { ...SALE_DAY, cdnHitRatio: 0, appCacheHitRatio: 0.5, visitorsPerHour: 500_000, ordersPerHour: 30_000 });
    const line = (what: string) => c.lines.find((l) => l.what === what)!;
    expect(line("pages from the CDN").perSecond).toBe(0);
    // 833.3 page views/s: 333.3 anonymous from the page cache, 333.3 anonymous + 166.7 signed in rendered.
    expect(line("pages from the app's page cache").perSecond).toBeCloseTo(333.33, 2);
    expect(line("pages rendered").perSecond).toBeCloseTo(500, 6);
    // 3500 + 333.3 + 333.3 + 500 ms/s = 4.67 cores, ×2 → 10 servers.
    expect(c.appServers).toBe(10);
    expect(c.totalMbitPerSec).toBeCloseTo(833.333 * 7000 * 8 / 1e6, 3);
  });
});

describe("dataUrl", () => {
  it("names the data request a client-side navigation makes", () => {
    expect(dataUrl("/")).toBe("/_root.data");
    expect(dataUrl("/shop?search=linen&page=2")).toBe("/shop.data?search=linen&page=2");
    expect(dataUrl("/product/abc")).toBe("/product/abc.data");
  });
});
