import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePosts } from "../factories/posts";
import { makeProducts } from "../factories/products";
import { launchBrowser, useShop } from "./harness";
import { hydrated, storefrontPages } from "./page-helpers";

/**
 * Storefront pages paint from their HTML alone (docs/decisions/0021-first-paint.md): the CSS they
 * use is inline and the scripts are fetched at low priority, so nothing the browser requests
 * blocks the first paint — Lighthouse's simulated slow phone counts every stylesheet, and every
 * high-priority script that arrived before the paint, as blocking it.
 */
const shop = useShop();
let browser: Browser;
let productId = "";
let postSlug = "";

beforeAll(async () => {
  browser = await launchBrowser();
  const products = await makeProducts(shop.db, 12, (i) => ({
    name: `Stonewashed Linen Duvet Cover ${i + 1}`,
    featured: i < 8,
    originalPriceCents: i % 4 === 0 ? 9900 : null,
    stockQuantity: i === 3 ? 0 : 10,
    colors: ["Sage", "Oatmeal", "Charcoal", "Rust"],
  }));
  productId = products[0]!.id;
  const posts = await makePosts(shop.db, 3, () => ({ tags: ["Sleep"], content: "<h2>Wash</h2><p>Cool water, <strong>no</strong> softener.</p><ul><li>Line dry</li></ul>" }));
  postSlug = posts[0]!.slug;
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const PAGES = storefrontPages(() => ({ productId, postSlug }));

/** Every element's computed style (custom properties aside: the inline rules keep only those in use). */
const computedStyles = (page: Page) =>
  page.evaluate(() => {
    // Animations stopped at their start, so a running one reads the same at both looks.
    for (const a of document.getAnimations()) {
      a.pause();
      a.currentTime = 0;
    }
    return [...document.body.querySelectorAll("*")].map((el) => {
      const style = getComputedStyle(el);
      const props: string[] = [];
      for (let i = 0; i < style.length; i++) {
        const name = style[i]!;
        if (!name.startsWith("--")) props.push(`${name}: ${style.getPropertyValue(name)}`);
      }
      return { el: `${el.tagName.toLowerCase()}.${el.getAttribute("class") ?? ""}`, props };
    });
  });

describe("first paint from the HTML alone", () => {
  for (const { label, path } of PAGES) {
    it(`${label} looks the same with its inline rules alone as with the whole stylesheet`, async () => {
      // Without JavaScript the page keeps what the server sent: the inline rules only.
      const context = await browser.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false, viewport: { width: 412, height: 823 } });
      try {
        const page = await context.newPage();
        await page.goto(path(), { waitUntil: "load" });
        const head = await page.evaluate(() => ({
          blocking: [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute("href")),
          preloads: [...document.querySelectorAll('link[rel="preload"][as="style"]')].map((l) => l.getAttribute("href")!),
          inline: document.querySelectorAll("head style[data-precedence]").length,
        }));
        expect(head.blocking, "no stylesheet link blocks the first paint").toEqual([]);
        expect(head.inline).toBeGreaterThan(0);
        expect(head.preloads.length).toBeGreaterThan(0);
        const inlineOnly = await computedStyles(page);
        // Then every stylesheet the page links, in full, after the inline rules (as React adds them).
        for (const href of head.preloads) {
          const css = await (await fetch(shop.baseUrl + href)).text();
          await page.evaluate((text) => {
            const style = document.createElement("style");
            style.textContent = text;
            document.head.append(style);
          }, css);
        }
        const full = await computedStyles(page);
        expect(full.length).toBe(inlineOnly.length);
        const differences = full.flatMap((el, i) => {
          const before = new Set(inlineOnly[i]!.props);
          const changed = el.props.filter((p) => !before.has(p));
          return changed.length ? [`${el.el}: ${changed.slice(0, 4).join("; ")} (inline rules alone: ${inlineOnly[i]!.props.filter((p) => !new Set(el.props).has(p)).slice(0, 4).join("; ")})`] : [];
        });
        expect(differences.slice(0, 10)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it("calls neither history nor sessionStorage before the first paint of a first visit, and a reload still scrolls back to where the visitor was", async () => {
    const page = await shop.newPage();
    await page.setViewportSize({ width: 412, height: 823 });
    // Who replaces the history entry or reads sessionStorage: a classic inline script runs as the
    // document is parsed, before the first paint; the deferred module script after it.
    await page.addInitScript(() => {
      const calls: string[] = [];
      (window as unknown as { calls: string[] }).calls = calls;
      const by = () => (document.currentScript && !(document.currentScript as HTMLScriptElement).type ? "inline" : "later");
      const replaceState = History.prototype.replaceState;
      History.prototype.replaceState = function (...args: Parameters<History["replaceState"]>) {
        calls.push(`replaceState ${by()}`);
        return replaceState.apply(this, args);
      };
      const getItem = Storage.prototype.getItem;
      Storage.prototype.getItem = function (key: string) {
        calls.push(`getItem ${by()}`);
        return getItem.call(this, key);
      };
    });
    const callsSoFar = () => page.evaluate(() => (window as unknown as { calls: string[] }).calls);
    await page.goto("/shop");
    await hydrated(page);
    const first = await callsSoFar();
    expect(first.filter((c) => c.endsWith("inline"))).toEqual([]);
    expect(first).toContain("replaceState later");
    expect(await page.evaluate(() => (history.state as { key?: string } | null)?.key)).toMatch(/^[0-9a-v]+$/);

    await page.evaluate(() => window.scrollTo(0, 1200));
    await page.waitForFunction(() => Math.round(window.scrollY) === 1200);
    await page.reload();
    // Restored by the inline script, before the page paints, not by hydration.
    expect(await callsSoFar()).toContain("getItem inline");
    expect(Math.round(await page.evaluate(() => window.scrollY))).toBe(1200);
  });

  it("an empty cart's page does not move when it hydrates: the placeholder the server sends is as tall as the empty cart", async () => {
    for (const viewport of [
      { width: 412, height: 823 },
      { width: 1280, height: 800 },
    ]) {
      const context = await browser.newContext({ baseURL: shop.baseUrl, viewport });
      try {
        const page = await context.newPage();
        // Each shift with what moved (LayoutShift.sources): the element, where it was and where it went.
        await page.addInitScript(() => {
          type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
          const shifts: string[] = [];
          (window as unknown as { shifts: string[] }).shifts = shifts;
          const name = (node: Node | null | undefined): string => {
            if (!node) return "(gone)";
            if (!(node instanceof Element)) return `${node.nodeName} "${(node.textContent ?? "").slice(0, 30)}" in ${name(node.parentElement)}`;
            const cls = node.getAttribute("class");
            return `${node.tagName.toLowerCase()}${cls ? `.${cls.trim().split(/\s+/).join(".")}` : ""}`;
          };
          const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              const shift = entry as PerformanceEntry & { value: number; sources: Source[] };
              const moved = shift.sources.map((s) => `${name(s.node)} ${rect(s.previousRect)} → ${rect(s.currentRect)}`);
              shifts.push(`${shift.value.toFixed(4)} at ${Math.round(shift.startTime)} ms: ${moved.join("; ")}`);
            }
          }).observe({ type: "layout-shift", buffered: true });
        });
        await page.goto("/cart");
        await page.getByText("Your cart is empty").waitFor();
        // Layout shifts are reported after the frame that made them.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts), `at ${viewport.width} px`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  for (const { label, path } of PAGES) {
    it(`${label} requests nothing that blocks the first paint, and hydrates with the whole stylesheet after the inline rules`, async () => {
      const page = await shop.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      const requests: { url: string; type: string; priority: string }[] = [];
      cdp.on("Network.requestWillBeSent", (e) => requests.push({ url: e.request.url, type: e.type ?? "", priority: e.request.initialPriority }));
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(err.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(path());
      // The scripts come after the first paint, which a busy machine can hold back past a quiet
      // half second: wait for hydration and its stylesheet rather than for the network to rest.
      await hydrated(page);
      await page.locator("head link[rel=stylesheet]").first().waitFor({ state: "attached" });
      await page.waitForLoadState("networkidle");
      // What Lighthouse's simulation treats as blocking the first paint (Lantern's
      // hasRenderBlockingPriority): anything at the highest priority, or a script at high.
      const blocking = requests.filter(
        (r) => r.type !== "Document" && (r.priority === "VeryHigh" || (r.priority === "High" && r.type === "Script")),
      );
      expect(blocking.map((r) => `${r.type} ${r.priority} ${new URL(r.url).pathname}`)).toEqual([]);
      expect(requests.filter((r) => r.type === "Script").length, "the scripts were requested").toBeGreaterThan(0);
      // The scripts are asked for only once the document has been read and the page could paint,
      // leaving the first moments to the document and the images of the first screen.
      const timing = await page.evaluate(() => ({
        parsed: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventStart,
        scripts: performance.getEntriesByType("resource").filter((r) => /\.js(\?|$)/.test(r.name)).map((r) => r.startTime),
      }));
      expect(timing.scripts.length).toBeGreaterThan(0);
      expect(Math.min(...timing.scripts), `first script at ${Math.min(...timing.scripts)} ms, document parsed at ${timing.parsed} ms`).toBeGreaterThanOrEqual(timing.parsed);
      const order = await page.evaluate(() =>
        [...document.head.querySelectorAll("style[data-precedence], link[rel=stylesheet]")].map((e) => e.tagName.toLowerCase()),
      );
      // React adds the stylesheets on hydration; the inline copies come first, so the full files decide.
      expect(order.includes("link"), `head: ${order.join(" ")}`).toBe(true);
      expect(order.lastIndexOf("style"), `head: ${order.join(" ")}`).toBeLessThan(order.indexOf("link"));
      expect(errors).toEqual([]);
    });
  }
});
