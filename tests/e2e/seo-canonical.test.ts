import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { useDatabase } from "~/server/platform/db/client.server";
import { openCheckout } from "../factories/orders";
import { makePosts } from "../factories/posts";
import { makeProduct } from "../factories/products";
import { startShop } from "./harness";
import { saveReturnsSetting } from "~/server/commerce/returns/returns-setting.server";

/**
 * Every indexable page carries its canonical URL, built from PUBLIC_URL: exactly one
 * `<link rel="canonical">` and one `og:url`, equal. The pages are not listed here by hand: they
 * come from app/routes.ts, so a page added tomorrow is checked too. A page counts as indexable
 * unless robots.txt keeps crawlers out of its path or the page itself says `noindex` (the cart,
 * checkout, account and admin pages, a product that is not found). Resource routes (no
 * component) are not pages. A URL with a parameter is visited with a real one from the factories;
 * a new parameter without a sample fails here until one is added.
 */

// Another address than the one the test talks to: the canonical must come from PUBLIC_URL, not the Host.
const PUBLIC_URL = "https://www.linen-and-loft.example";

type RouteEntry = { id?: string; path?: string; index?: boolean; file: string; children?: RouteEntry[] };
type PageRoute = { pattern: string; file: string };

/** Every URL pattern of app/routes.ts with the module that answers it (layouts have no URL of their own). */
function urlRoutes(entries: RouteEntry[], parent = ""): PageRoute[] {
  return entries.flatMap((e) => {
    const own = e.path === undefined ? parent : `${parent}/${e.path}`.replace(/\/+/g, "/");
    const here = e.path !== undefined || e.index ? [{ pattern: own || "/", file: e.file }] : [];
    return [...here, ...urlRoutes(e.children ?? [], own)];
  });
}

let shop: Awaited<ReturnType<typeof startShop>>;
/** Sample URLs per parameter; a list page's extra pages are samples of their own. */
const samples: Record<string, string> = {};
const extraSamples: Record<string, string[]> = {};

beforeAll(async () => {
  shop = await startShop({ env: { PUBLIC_URL } });
  useDatabase(shop.db, shop.test.url);
  const product = await makeProduct(shop.db, { name: "Canonical Linen Sheet" });
  const posts = await makePosts(shop.db, 13, (i) => ({ title: `Canonical post ${i}`, slug: `canonical-post-${i}` }));
  const checkout = await openCheckout(shop.db, [[product, 1]]);
  samples.id = product.id;
  samples.slug = posts[0]!.slug;
  samples.sessionId = checkout.sessionId;
  samples.step = "unsubscribe";
  samples["*"] = "no-such-page-anywhere";
  // The footer's withdrawal page exists only while the owner offers the EU withdrawal.
  await saveReturnsSetting(shop.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
  // A category's listing and the blog's second page are canonical pages of their own.
  extraSamples["/shop"] = ["/shop?category=Bedding"];
  extraSamples["/blog"] = ["/blog?page=2"];
}, 90_000);

afterAll(async () => {
  await shop?.stop();
  await shop?.test.drop();
});

function sampleUrl(pattern: string): string {
  return pattern.replace(/:(\w+)\??|\*/g, (token, name: string | undefined) => {
    const key = name ?? "*";
    const value = samples[key];
    if (!value) throw new Error(`No sample for "${token}" in ${pattern}: add one to the samples in tests/e2e/seo-canonical.test.ts`);
    return encodeURIComponent(value);
  });
}

const decode = (s: string) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]!) : undefined;
};
const tags = (html: string, re: RegExp) => [...html.matchAll(re)].map((m) => m[0]);

function seoOf(html: string, headers: Headers) {
  const head = html.slice(0, html.indexOf("</head>") + 1 || undefined);
  const canonical = tags(head, /<link\b[^>]*\brel="canonical"[^>]*>/g).map((t) => attr(t, "href"));
  const ogUrl = tags(head, /<meta\b[^>]*\bproperty="og:url"[^>]*>/g).map((t) => attr(t, "content"));
  const robots = tags(head, /<meta\b[^>]*\bname="robots"[^>]*>/g).map((t) => attr(t, "content") ?? "");
  const noindex = robots.some((r) => /noindex/i.test(r)) || /noindex/i.test(headers.get("x-robots-tag") ?? "");
  return { canonical, ogUrl, noindex };
}

async function disallowedPaths(): Promise<string[]> {
  const text = await (await fetch(`${shop.baseUrl}/robots.txt`)).text();
  return [...text.matchAll(/^Disallow:\s*(\S+)/gim)].map((m) => m[1]!);
}

async function isPage(file: string): Promise<boolean> {
  const mod = (await import(/* @vite-ignore */ path.resolve("app", file))) as { default?: unknown };
  return typeof mod.default === "function";
}

describe("canonical URLs", () => {
  it("every indexable page in app/routes.ts has exactly one canonical link and one og:url, equal, from PUBLIC_URL", async () => {
    const disallowed = await disallowedPaths();
    const all = urlRoutes(routes as RouteEntry[]);
    expect(all.length).toBeGreaterThan(20);

    const checked: string[] = [];
    const skipped: string[] = [];
    const problems: string[] = [];
    for (const route of all) {
      if (disallowed.some((p) => route.pattern.startsWith(p) || `${route.pattern}/`.startsWith(p))) continue;
      if (!(await isPage(route.file))) continue;
      const urls = [sampleUrl(route.pattern), ...(extraSamples[route.pattern] ?? [])];
      for (const url of urls) {
        const res = await fetch(`${shop.baseUrl}${url}`, { redirect: "manual" });
        const html = await res.text();
        const splat = route.pattern.includes("*");
        if (res.status !== (splat ? 404 : 200)) {
          problems.push(`${url} (${route.pattern}) answered ${res.status}: fix its sample`);
          continue;
        }
        const seo = seoOf(html, res.headers);
        if (seo.noindex) {
          skipped.push(url);
          continue;
        }
        checked.push(route.pattern);
        const expected = `${PUBLIC_URL}${url}`;
        if (seo.canonical.length !== 1) problems.push(`${url}: ${seo.canonical.length} canonical links`);
        if (seo.ogUrl.length !== 1) problems.push(`${url}: ${seo.ogUrl.length} og:url tags`);
        if (seo.canonical.length === 1 && seo.ogUrl.length === 1) {
          if (seo.canonical[0] !== seo.ogUrl[0]) problems.push(`${url}: canonical ${seo.canonical[0]} but og:url ${seo.ogUrl[0]}`);
          if (seo.canonical[0] !== expected) problems.push(`${url}: canonical ${seo.canonical[0]}, expected ${expected}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The storefront's indexable pages today, so a broken classification cannot pass by checking nothing.
    expect([...new Set(checked)]).toEqual(expect.arrayContaining(["/", "/shop", "/product/:id", "/contact", "/blog", "/blog/:slug"]));
    // And what was left out for its own noindex: the test payment page and the not-found page.
    expect(skipped).toEqual(expect.arrayContaining([`/pay/test/${encodeURIComponent(samples.sessionId!)}`, "/no-such-page-anywhere", "/withdraw"]));
  });
});
