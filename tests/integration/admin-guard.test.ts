import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { makeAdmin, makeCustomer, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };
type Found = { file: string; path: string };

/** Every route in app/routes.ts with its full path (prefix() already puts the prefix on children). */
function allRoutes(entries: RouteEntry[], parent = ""): Found[] {
  return entries.flatMap((e) => {
    const full = [parent, e.path ?? ""].filter(Boolean).join("/").replace(/\/+/g, "/");
    return [{ file: e.file, path: full }, ...allRoutes(e.children ?? [], e.path ? full : parent)];
  });
}

/** The admin area: pages under /admin, admin APIs, and any module living in routes/admin/. */
const isAdminRoute = (r: Found) =>
  /^admin(\/|$)/.test(r.path) || /^api\/admin(\/|$)/.test(r.path) || r.file.replace(/^\.\//, "").startsWith("routes/admin/");

/** A concrete URL for the route: each :param and * gets a harmless value. */
function urlFor(r: Found) {
  const p = r.path || "admin";
  const params: Record<string, string> = {};
  const concrete = p
    .split("/")
    .map((seg) => {
      if (seg === "*") return (params["*"] = "x");
      if (seg.startsWith(":")) {
        const name = seg.slice(1).replace(/\?$/, "");
        return (params[name] = "00000000-0000-4000-8000-000000000000");
      }
      return seg;
    })
    .join("/");
  return { url: `/${concrete}`, params };
}

type Handler = (args: { request: Request; params: Record<string, string>; context: unknown }) => unknown;

async function outcome(fn: Handler, request: Request, params: Record<string, string>) {
  let r: unknown;
  try {
    r = await fn({ request, params, context: { requestId: "guard-test", cspNonce: "" } });
  } catch (e) {
    r = e;
  }
  if (r instanceof Response) return { status: r.status, location: r.headers.get("location") };
  if (r && typeof r === "object" && (r as { type?: string }).type === "DataWithResponseInit") {
    return { status: (r as { init?: { status?: number } }).init?.status ?? 200, location: null };
  }
  if (r instanceof Error) return { status: 500, location: null, error: r.message };
  return { status: 200, location: null };
}

function request(url: string, method: "GET" | "POST", cookie?: string) {
  const headers = new Headers({ "x-shop-client-ip": "192.0.2.77", origin: "http://localhost:3000" });
  if (cookie) headers.set("cookie", cookie);
  return new Request(`http://localhost:3000${url}`, {
    method,
    headers,
    body: method === "POST" ? new URLSearchParams({ intent: "delete", id: "00000000-0000-4000-8000-000000000000" }) : undefined,
  });
}

const adminRoutes = allRoutes(routes as unknown as RouteEntry[]).filter(isAdminRoute);

describe("the admin guard, on every admin route in app/routes.ts", () => {
  const t = useTestDatabase();

  it("finds the admin area (so this test cannot pass by finding nothing)", () => {
    const files = adminRoutes.map((r) => r.file);
    expect(files).toContain("routes/admin/layout.tsx");
    expect(files).toContain("routes/admin/dashboard.tsx");
    expect(files).toContain("routes/admin/outbox/index.tsx");
    expect(files).toContain("routes/admin/outbox/message.tsx");
    // Discount codes: the list, the editor (new and :id) and the editor's product search.
    expect(adminRoutes.filter((r) => r.path.startsWith("admin/discounts")).map((r) => r.path)).toEqual([
      "admin/discounts",
      "admin/discounts/new",
      "admin/discounts/products",
      "admin/discounts/:id",
    ]);
    expect(files).toContain("routes/admin/settings/shipping.tsx");
  });

  it("refuses anonymous people (to /auth and back) and customers (403) on every loader and action", async () => {
    const customer = await makeCustomer(t.db);
    const customerCookie = await sessionCookie(t.db, customer.id);
    const problems: string[] = [];
    let checked = 0;
    for (const r of adminRoutes) {
      const mod = (await import(/* @vite-ignore */ path.resolve("app", r.file))) as { loader?: Handler; action?: Handler };
      const { url, params } = urlFor(r);
      for (const [kind, fn, method] of [
        ["loader", mod.loader, "GET"],
        ["action", mod.action, "POST"],
      ] as const) {
        if (!fn) continue;
        checked++;
        const anon = await outcome(fn, request(url, method), params);
        const expected = `/auth?redirectTo=${encodeURIComponent(url)}`;
        if (anon.status !== 302 || anon.location !== expected) {
          problems.push(`${r.file} ${kind} as anonymous: ${anon.status} ${anon.location ?? ""} ${"error" in anon ? anon.error : ""} (expected redirect to ${expected})`);
        }
        const cust = await outcome(fn, request(url, method, customerCookie), params);
        if (cust.status !== 403) {
          problems.push(`${r.file} ${kind} as customer: ${cust.status} ${"error" in cust ? cust.error : ""} (expected 403)`);
        }
      }
    }
    // Every admin loader and action must call requireAdmin(request) first.
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it("lets an admin in", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);
    for (const file of ["routes/admin/layout.tsx", "routes/admin/dashboard.tsx", "routes/admin/outbox/index.tsx"]) {
      const mod = (await import(/* @vite-ignore */ path.resolve("app", file))) as { loader: Handler };
      expect((await outcome(mod.loader, request(file.includes("outbox") ? "/admin/outbox" : "/admin", "GET", cookie), {})).status, file).toBe(200);
    }
  });
});
