import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProduct } from "../factories/products";
import { createSession, makeAdmin, makeCustomer, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, startShop, type Shop } from "./harness";
import { routeMap, TOKEN_PARAMS, type RouteInfo } from "./route-map";

/**
 * Walks every route of app/routes.ts on the built shop (the same routes, in the same order, as
 * the server matches them), so a route added later is walked too.
 */
let shop: Shop & { test: { drop: () => Promise<void> } };
let productId = "";
const cookies: Record<"customer" | "admin", string> = {
  customer: "",
  admin: "",
};

beforeAll(async () => {
  shop = await startShop();
  productId = (await makeProduct(shop.db)).id;
  for (const [who, user] of [
    ["customer", await makeCustomer(shop.db)],
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

/** The route's parameters filled with something of the right shape. */
function pathOf(r: RouteInfo): string {
  return r.pattern
    .replace("/product/:id", `/product/${productId}`)
    .replace(":step", "confirm")
    .replace(":width", "320")
    .replace(":slug", "no-such-post")
    .replace(":orderNumber", "LL-100000")
    .replace(":sessionId", "cs_test_route_walk")
    .replace(/:\w+/g, NIL_ID)
    .replace(/\/\*$/, r.pattern === "/*" ? "/no-such-page" : "/tests/none.png");
}

const TOKEN_QUERY = new URLSearchParams([
  ...TOKEN_PARAMS.map((p) => [p, "route-walk-token"]),
  ["e", "someone@example.test"],
  ["o", "LL-100000"],
  ["order", NIL_ID],
  ["id", NIL_ID],
]);

/** URLs of the route to walk, and whether each carries a link's token. */
function samplesOf(r: RouteInfo): { url: string; token: boolean }[] {
  // better-auth's handler: the session as JSON, and its old confirmation link (a token).
  if (r.pattern === "/api/auth/*")
    return [
      { url: "/api/auth/get-session", token: false },
      { url: `/api/auth/verify-email?${TOKEN_QUERY}`, token: true },
    ];
  const path = pathOf(r);
  return [
    {
      url: r.takesToken ? `${path}?${TOKEN_QUERY}` : path,
      token: r.takesToken,
    },
  ];
}

/** The data request a client-side navigation makes for a page. */
function dataUrlOf(url: string): string {
  const [pathname, query] = url.split("?");
  return `${pathname === "/" ? "/_root" : pathname}.data${query ? `?${query}` : ""}`;
}

async function get(url: string, cookie?: string) {
  const res = await fetch(`${shop.baseUrl}${url}`, {
    headers: cookie ? { cookie } : {},
    redirect: "manual",
    signal: AbortSignal.timeout(20_000),
  });
  // A stream (a job's progress events) is not read to its end.
  const streaming = (res.headers.get("content-type") ?? "").includes("event-stream");
  const body = streaming ? "(stream)" : await res.text();
  if (streaming) await res.body?.cancel();
  return {
    status: res.status,
    body,
    cacheControl: res.headers.get("cache-control"),
  };
}

const masked = (body: string) => body.replace(/\d+/g, "0");

const isPrivateNoStore = (cacheControl: string | null) => {
  const directives = (cacheControl ?? "").split(",").map((d) => d.trim().toLowerCase());
  return directives.includes("private") && directives.includes("no-store");
};

describe("every route of app/routes.ts", () => {
  it("answers a signed-in visitor, and a link's token, with Cache-Control: private, no-store wherever the answer depends on them", async () => {
    const walked = routeMap().filter((r) => r.page || r.loader);
    expect(walked.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const r of walked) {
      for (const { url, token } of samplesOf(r)) {
        for (const target of r.page ? [url, dataUrlOf(url)] : [url]) {
          const anonymous = await get(target);
          // Whoever holds the link sees what its token opens: private, whoever they are.
          if (token && !isPrivateNoStore(anonymous.cacheControl)) {
            missing.push(`GET ${target} with a token → ${anonymous.status}, Cache-Control: ${anonymous.cacheControl}`);
          }
          for (const who of ["customer", "admin"] as const) {
            const res = await get(target, cookies[who]);
            // A page shows who is signed in (the root loader reads the session); another answer
            // depends on the session when it differs from what a visitor without one gets.
            // Figures are masked: a health check's timing is not about who asks.
            const dependsOnSession = r.page || res.status !== anonymous.status || masked(res.body) !== masked(anonymous.body);
            if (dependsOnSession && !isPrivateNoStore(res.cacheControl)) {
              missing.push(`GET ${target} as a signed-in ${who} → ${res.status}, Cache-Control: ${res.cacheControl}`);
            }
          }
        }
      }
    }
    expect(missing).toEqual([]);
  }, 300_000);

  it("answers GET and HEAD on every route that only takes POST with 405 and Allow: POST", async () => {
    const postOnly = routeMap().filter((r) => !r.page && !r.loader && r.action);
    expect(postOnly.map((r) => r.pattern)).toEqual(
      expect.arrayContaining(["/api/checkout", "/admin/site-settings/emails", "/admin/site-settings/reminder"]),
    );
    const wrong: string[] = [];
    for (const r of postOnly) {
      for (const method of ["GET", "HEAD"]) {
        for (const cookie of [undefined, cookies.admin]) {
          const res = await fetch(`${shop.baseUrl}${pathOf(r)}`, {
            method,
            headers: cookie ? { cookie } : {},
            redirect: "manual",
          });
          await res.arrayBuffer();
          if (res.status !== 405 || res.headers.get("allow") !== "POST") {
            wrong.push(`${method} ${r.pattern}${cookie ? " as the admin" : ""} → ${res.status}, Allow: ${res.headers.get("allow")}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
