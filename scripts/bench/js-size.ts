import zlib from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { CHROME_FLAGS, CHROME_PATH } from "./browser";

/** Every storefront page's first-load JavaScript within 1.10× of a bare React Router page (docs/decisions/0022). */
export const JS_BUDGET_RATIO = 1.1;

export type JsFile = { path: string; bytes: number; gzip: number };
export type JsWeight = {
  url: string;
  files: JsFile[];
  bytes: number;
  gzip: number;
};

/** The storefront pages whose first load is budgeted, as paths given a product id and a post slug. */
export function budgetedPages(productId: string, postSlug: string): { label: string; path: string }[] {
  return [
    { label: "/", path: "/" },
    { label: "/shop", path: "/shop" },
    { label: "/product/:id", path: `/product/${productId}` },
    { label: "/blog", path: "/blog" },
    { label: "/blog/:slug", path: `/blog/${postSlug}` },
    { label: "/cart", path: "/cart" },
    { label: "/contact", path: "/contact" },
  ];
}

const launch = () =>
  chromium.launch({
    executablePath: CHROME_PATH,
    args: CHROME_FLAGS.filter((f) => f !== "--headless"),
    headless: true,
  });

/**
 * The JavaScript a first visit loads: every script response (module entry, modulepreloads and
 * the route chunks hydration imports) until the network is idle, each gzip-compressed here at
 * the default level (what the shop's compression middleware sends), so both sides compare alike.
 * Each URL gets a fresh browser context (empty cache, no cookies): a first visit.
 */
export async function firstLoadJs(url: string, browser?: Browser): Promise<JsWeight> {
  if (!browser) {
    const own = await launch();
    try {
      return await firstLoadJs(url, own);
    } finally {
      await own.close();
    }
  }
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const pending: Promise<JsFile | null>[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() !== "script") return;
      pending.push(
        res
          .body()
          .then((body) => ({
            path: new URL(res.url()).pathname,
            bytes: body.length,
            gzip: zlib.gzipSync(body).length,
          }))
          .catch(() => null),
      );
    });
    const res = await page.goto(url, {
      waitUntil: "networkidle",
      timeout: 60_000,
    });
    if (!res || res.status() !== 200) throw new Error(`GET ${url} answered ${res?.status() ?? "nothing"}`);
    // Hydration may import a last route chunk just after the network first goes quiet.
    await page.waitForTimeout(500);
    const files = (await Promise.all(pending)).filter((f): f is JsFile => f !== null);
    const unique = [...new Map(files.map((f) => [f.path, f])).values()].sort((a, b) => b.gzip - a.gzip);
    return {
      url,
      files: unique,
      bytes: unique.reduce((s, f) => s + f.bytes, 0),
      gzip: unique.reduce((s, f) => s + f.gzip, 0),
    };
  } finally {
    await context.close();
  }
}

export type PageJs = {
  label: string;
  path: string;
  weight?: JsWeight;
  error?: string;
  ratio?: number;
  met?: boolean;
};

/**
 * First-load JavaScript of each page, one browser and a fresh context per page, against the
 * bare page's weight. A page that fails to load is reported with its error, the rest still measured.
 * In `given` when passed (left open), else in a browser of its own.
 */
export async function firstLoadJsOfPages(baseUrl: string, pages: { label: string; path: string }[], floor: JsWeight, given?: Browser): Promise<PageJs[]> {
  const browser = given ?? (await launch());
  try {
    const out: PageJs[] = [];
    for (const p of pages) {
      try {
        const weight = await firstLoadJs(baseUrl + p.path, browser);
        const ratio = weight.gzip / floor.gzip;
        out.push({ ...p, weight, ratio, met: ratio <= JS_BUDGET_RATIO });
      } catch (err) {
        out.push({ ...p, error: (err as Error).message });
      }
    }
    return out;
  } finally {
    if (!given) await browser.close();
  }
}

/** "react-Bxpt5QPR.js 105.9, storefront-….js 8.4, …": a page's files, largest first, gzip KB. */
export function describeFiles(files: JsFile[], limit = files.length): string {
  return files
    .slice(0, limit)
    .map((f) => `${f.path.replace(/^\/assets\//, "")} ${(f.gzip / 1024).toFixed(1)}`)
    .join(", ");
}
