import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProduct } from "../factories/products";
import { createSession, DEFAULT_TEST_PASSWORD, makeAdmin, makeCustomer, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, startShop, type Shop } from "./harness";
import { routeMap, TOKEN_PARAMS, type RouteInfo } from "./route-map";

/**
 * What a CDN in front may keep (docs/decisions/0037): every route of app/routes.ts, walked as
 * route-walk.test.ts walks it, anonymously and signed in. Nothing asked for with a session, and
 * nothing that sets a cookie, is ever public; the storefront's anonymous pages are, with the keys
 * the purge job names.
 */
let shop: Shop & { test: { drop: () => Promise<void> } };
let productId = "";
let customerEmail = "";
const cookies: Record<"customer" | "admin", string> = { customer: "", admin: "" };

beforeAll(async () => {
  shop = await startShop({ env: { CDN_S_MAXAGE: "120", CDN_STALE_WHILE_REVALIDATE: "600" } });
  productId = (await makeProduct(shop.db)).id;
  const customer = await makeCustomer(shop.db);
  customerEmail = customer.email;
  for (const [who, user] of [
    ["customer", customer],
    ["admin", await makeAdmin(shop.db)],
  ] as const) {
    cookies[who] = `${SESSION_COOKIE}=${(await createSession(shop.db, user.id, E2E_AUTH_SECRET)).cookieValue}`;
  }
}, 90_000);

afterAll(async () => {
  await shop?.stop();
  await shop?.test.drop();
});

const NIL_ID = "00000000-0000-4000-8000-000000000000";

function pathOf(r: RouteInfo): string {
  return r.pattern
    .replace("/product/:id", `/product/${productId}`)
    .replace(":step", "confirm")
    .replace(":width", "320")
    .replace(":slug", "no-such-post")
    .replace(":orderNumber", "LL-100000")
    .replace(":sessionId", "cs_test_cdn_walk")
    .replace(/:\w+/g, NIL_ID)
    .replace(/\/\*$/, r.pattern === "/*" ? "/no-such-page" : "/tests/none.png");
}

const TOKEN_QUERY = new URLSearchParams(TOKEN_PARAMS.map((p) => [p, "cdn-walk-token"]));

function urlsOf(r: RouteInfo): string[] {
  if (r.pattern === "/api/auth/*") return ["/api/auth/get-session", `/api/auth/verify-email?${TOKEN_QUERY}`];
  const path = pathOf(r);
  const url = r.takesToken ? `${path}?${TOKEN_QUERY}` : path;
  if (!r.page) return [url];
  const [pathname, query] = url.split("?");
  return [url, `${pathname === "/" ? "/_root" : pathname}.data${query ? `?${query}` : ""}`];
}

type Answer = { status: number; cacheControl: string; cdnCacheControl: string | null; surrogateControl: string | null; surrogateKey: string | null; cacheTag: string | null; setCookie: boolean };

async function get(url: string, cookie?: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${shop.baseUrl}${url}`, {
    ...init,
    headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string> | undefined) },
    redirect: "manual",
    signal: AbortSignal.timeout(20_000),
  });
  if ((res.headers.get("content-type") ?? "").includes("event-stream")) await res.body?.cancel();
  else await res.arrayBuffer();
  return {
    status: res.status,
    cacheControl: res.headers.get("cache-control") ?? "",
    cdnCacheControl: res.headers.get("cdn-cache-control"),
    surrogateControl: res.headers.get("surrogate-control"),
    surrogateKey: res.headers.get("surrogate-key"),
    cacheTag: res.headers.get("cache-tag"),
    setCookie: res.headers.getSetCookie().length > 0,
  };
}

const isPublic = (cacheControl: string) => /\bpublic\b/i.test(cacheControl);

describe("a CDN in front", () => {
  it("is never told to keep a response asked for with a session or one that sets a cookie, on any route", async () => {
    const walked = routeMap().filter((r) => r.page || r.loader);
    expect(walked.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    let publicAnswers = 0;
    for (const r of walked) {
      for (const url of urlsOf(r)) {
        for (const who of ["anonymous", "customer", "admin"] as const) {
          const res = await get(url, who === "anonymous" ? undefined : cookies[who]);
          const shared = isPublic(res.cacheControl) || res.surrogateKey !== null || res.cacheTag !== null;
          if (shared && who !== "anonymous") wrong.push(`GET ${url} as a signed-in ${who} → ${res.status}, Cache-Control: ${res.cacheControl}, Surrogate-Key: ${res.surrogateKey}`);
          if (shared && res.setCookie) wrong.push(`GET ${url} (${who}) sets a cookie and says Cache-Control: ${res.cacheControl}`);
          if (shared && who === "anonymous") publicAnswers++;
        }
      }
    }
    // Signing in (a Set-Cookie) and a page asked for with any other cookie.
    const signIn = await get("/api/auth/sign-in/email", undefined, {
      method: "POST",
      headers: { "content-type": "application/json", origin: shop.baseUrl },
      body: JSON.stringify({ email: customerEmail, password: DEFAULT_TEST_PASSWORD }),
    });
    expect(signIn.setCookie).toBe(true);
    expect(signIn.cacheControl).toBe("private, no-store");
    for (const url of ["/", "/shop.data", `/product/${productId}`]) {
      const res = await get(url, "cart_hint=1");
      expect(res.cacheControl, url).toBe("private, no-store");
      expect(res.surrogateKey, url).toBeNull();
    }
    expect(wrong).toEqual([]);
    // The walk did meet public pages (the storefront's), so the check above had something to check.
    expect(publicAnswers).toBeGreaterThanOrEqual(10);
  }, 400_000);

  it("lets a CDN keep the storefront's anonymous pages and data requests, with the keys of what they show", async () => {
    // Browsers get no stale-while-revalidate (they would show an old page from their own cache);
    // the CDN's grace goes in the headers only CDNs read.
    const control = "public, max-age=0, s-maxage=120";
    const cdnControl = "max-age=120, stale-while-revalidate=600";
    const expected: [string, string][] = [
      ["/", "shop settings listing"],
      ["/_root.data", "shop settings listing"],
      ["/shop?search=linen", "shop settings listing"],
      ["/shop.data", "shop settings listing"],
      [`/product/${productId}`, `shop settings products product:${productId}`],
      [`/product/${productId}.data`, `shop settings products product:${productId}`],
      ["/blog", "shop settings blog"],
      ["/cart", "shop settings"],
      ["/contact.data", "shop settings"],
    ];
    for (const [url, keys] of expected) {
      // Twice: the first rendering, then the page cache's copy say the same.
      for (const round of [1, 2]) {
        const res = await get(url);
        expect(res.status, `${url} (${round})`).toBe(200);
        expect(res.cacheControl, `${url} (${round})`).toBe(control);
        expect(res.cdnCacheControl, `${url} (${round})`).toBe(cdnControl);
        expect(res.surrogateControl, `${url} (${round})`).toBe(cdnControl);
        expect(res.surrogateKey, `${url} (${round})`).toBe(keys);
        expect(res.cacheTag, `${url} (${round})`).toBe(keys.replaceAll(" ", ","));
      }
    }
    // Personal, or not found: never public.
    for (const url of ["/checkout", "/checkout.data", "/profile", "/admin", `/product/${NIL_ID}`, "/no-such-page", "/auth"]) {
      const res = await get(url);
      expect(isPublic(res.cacheControl), `${url}: ${res.cacheControl}`).toBe(false);
      expect(res.surrogateKey, url).toBeNull();
      expect(res.cdnCacheControl ?? res.surrogateControl, url).toBeNull();
    }
    expect((await get("/checkout")).cacheControl).toBe("private, no-store");
  }, 120_000);
});
