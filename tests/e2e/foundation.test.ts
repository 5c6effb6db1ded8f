import { describe, expect, it } from "vitest";
import { useShop } from "./harness";
import { hydrated, scriptsRefusedByCsp } from "./page-helpers";

describe("the shop's skeleton", () => {
  // An https public address (as in production behind TLS), so HSTS is sent (http-edges.test.ts: not over http).
  const shop = useShop({ env: { PUBLIC_URL: "https://shop.example.test" } });

  it("renders / on the server with status 200, its header and security headers", async () => {
    const res = await fetch(`${shop.baseUrl}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<header");
    expect(html).toContain('href="/shop"');
    const csp = res.headers.get("content-security-policy") ?? "";
    // A nonce for a fresh rendering, sha256 hashes for one served from the page cache.
    expect(csp).toMatch(/script-src 'self' ('nonce-[A-Za-z0-9+/=]+'|'sha256-[A-Za-z0-9+/=]+')/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBeTruthy();
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    // Every inline script is allowed by the policy, or the browser would refuse to hydrate.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inline.length).toBeGreaterThan(0);
    expect(scriptsRefusedByCsp(html, csp)).toEqual([]);
  });

  it("answers an unknown path with 404 and the not-found page", async () => {
    const res = await fetch(`${shop.baseUrl}/no/such/page`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("404");
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a[^>]+href="\/"/);
    expect(shop.shop.output()).toContain("/no/such/page");
    // The log line names the request by the id the response carries.
    const id = res.headers.get("x-request-id");
    const line = shop.shop
      .output()
      .split("\n")
      .find((l) => l.includes("/no/such/page"));
    expect(JSON.parse(line!)).toMatchObject({ reqId: id, path: "/no/such/page" });
  });

  it("reports its health, including the database", async () => {
    const res = await fetch(`${shop.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
  });

  it("serves the favicon", async () => {
    const res = await fetch(`${shop.baseUrl}/favicon.ico`);
    expect(res.status).toBe(200);
  });

  it("opens / in a real browser and shows the header, without script errors", async () => {
    const page = await shop.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Shop", exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole("banner").getByRole("link", { name: /cart/i }).isVisible()).resolves.toBe(true);
    // Hydration finished: a client-side navigation works without a full reload.
    await page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules);
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
  });

  it("shows the not-found page in the browser and logs the 404 to the console", async () => {
    const page = await shop.newPage();
    const logged: string[] = [];
    page.on("console", (m) => logged.push(m.text()));
    const res = await page.goto("/definitely-missing");
    expect(res?.status()).toBe(404);
    await page.getByText("Oops! Page not found").waitFor();
    // The scripts start after the first paint: the log is written once the page has hydrated.
    await hydrated(page);
    await page.getByRole("link", { name: /home/i }).last().click();
    await page.waitForURL((u) => u.pathname === "/");
    expect(logged.some((l) => l.includes("/definitely-missing"))).toBe(true);
  });
});
