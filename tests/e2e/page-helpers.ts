import { createHash, randomBytes } from "node:crypto";
import type { Locator, Page } from "playwright-core";

/** The machine is shared by parallel test runs: give each step of this page 30 s, not the harness's 10 s. */
export function slow<P extends Page>(page: P): P {
  page.setDefaultTimeout(30_000);
  return page;
}

/**
 * Waits until React has hydrated the page, or the part of it `target` points at: an event before
 * it (a click, a chosen file) can be lost. React Router's route modules are on `window` before
 * `hydrateRoot` runs, so they prove nothing; React's own keys on an element appear when it is
 * hydrated, and content streamed into a Suspense boundary hydrates after the rest of `<main>`.
 * Two frames later the hydration has been committed.
 */
export async function hydrated(page: Page, target?: Locator) {
  const element = target ? await target.elementHandle() : null;
  await page.waitForFunction(
    (el) => Object.keys(el ?? document.querySelector("main") ?? document.body).some((k) => k.startsWith("__reactProps")),
    element,
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Hydrated, and the forms marked as enhanced, so a submit goes through the enhanced path. */
export async function formsHydrated(page: Page) {
  await hydrated(page);
  await page.locator('input[name="js"][value="1"]').first().waitFor({ state: "attached" });
}

/** Opens a page and waits for hydration; answers the navigation's response. */
export async function open(page: Page, path: string) {
  const res = await page.goto(path, { waitUntil: "domcontentloaded" });
  await hydrated(page);
  return res;
}

/** A toast with this text (sonner renders them in a live region). */
export const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

/** Waits for a toast with this text to appear. */
export const seeToast = (page: Page, text: string) => toast(page, text).waitFor();

/** A name no other test in the shared database uses. */
export const unique = (label: string) => `${label} ${randomBytes(3).toString("hex")}`;

/**
 * The inline scripts of a page (their attributes) that its Content-Security-Policy refuses: a
 * script runs only if it carries the policy's nonce or its text hashes to a listed sha256.
 */
export function scriptsRefusedByCsp(html: string, csp: string): string[] {
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  const hashes = new Set([...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]));
  const refused: string[] = [];
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc=/i.test(attrs!)) continue;
    const byNonce = nonce !== undefined && attrs!.includes(`nonce="${nonce}"`);
    const byHash = hashes.has(createHash("sha256").update(body!, "utf8").digest("base64"));
    if (!byNonce && !byHash) refused.push(attrs!);
  }
  return refused;
}

/**
 * The six storefront pages the speed budgets cover (Lighthouse, first paint), by label; the
 * product and post are the test file's own, read when a test runs.
 */
export function storefrontPages(ids: () => { productId: string; postSlug: string }): { label: string; path: () => string }[] {
  return [
    { label: "the home page", path: () => "/" },
    { label: "the shop page", path: () => "/shop" },
    { label: "a product page", path: () => `/product/${ids().productId}` },
    { label: "the blog", path: () => "/blog" },
    { label: "a blog post", path: () => `/blog/${ids().postSlug}` },
    { label: "the cart", path: () => "/cart" },
  ];
}
