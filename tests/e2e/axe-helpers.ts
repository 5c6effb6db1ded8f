import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type axe from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Db } from "~/server/platform/db/client.server";
import { createSession, SESSION_COOKIE } from "../factories/users";
import { watchPage } from "./failure-report";
import { E2E_AUTH_SECRET } from "./harness";
import { hydrated } from "./page-helpers";

/** Who looks at a page: a signed-out visitor, a signed-in customer, the admin. */
export type Role = "visitor" | "customer" | "admin";

/**
 * One browser context (and one page, reused) per role, the customer and the admin signed in with
 * a session cookie. axe is injected as a script tag, which the shop's Content-Security-Policy
 * (nonces) would refuse: the contexts bypass it.
 */
export async function pagesByRole(
  browser: Browser,
  shop: { db: Db; baseUrl: string },
  users: { customer: { id: string }; admin: { id: string } },
): Promise<{ pages: Record<Role, Page>; contexts: BrowserContext[] }> {
  const pages = {} as Record<Role, Page>;
  const contexts: BrowserContext[] = [];
  for (const [role, user] of [["visitor", null], ["customer", users.customer], ["admin", users.admin]] as const) {
    const context = await browser.newContext({ baseURL: shop.baseUrl, bypassCSP: true, reducedMotion: "reduce" });
    contexts.push(context);
    if (user) {
      const { cookieValue } = await createSession(shop.db, user.id, E2E_AUTH_SECRET);
      await context.addCookies([{ name: SESSION_COOKIE, value: cookieValue, url: shop.baseUrl, httpOnly: true, sameSite: "Lax" }]);
    }
    pages[role] = await context.newPage();
    watchPage(pages[role]);
    pages[role].setDefaultTimeout(30_000);
  }
  return { pages, contexts };
}

/** The widths every page and state is checked at: a laptop and a phone. */
export const WIDTHS = [1280, 390] as const;
/** axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules (docs/rules/accessibility.md). */
export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** One readable line per violating element. */
export type Finding = string;

/** Waits for the page to be hydrated and still (no running animation, e.g. a dialog fading in). */
export async function settled(page: Page) {
  await hydrated(page);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

let axeScript: Promise<string> | undefined;

/**
 * The URL of axe-core's minified script, served from this process and cached for a year. Each page
 * load needs axe again; passed as text (`axe.source`, 1.5 MB unminified) it was compiled afresh
 * every time, about 280 ms of a busy browser's CPU per page. Loaded from a URL, the browser keeps
 * it in its HTTP cache with its compiled code, and a page takes it in about 35 ms.
 */
function axeScriptUrl(): Promise<string> {
  axeScript ??= new Promise((resolve, reject) => {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"));
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/javascript", "Cache-Control": "public, max-age=31536000, immutable" });
      res.end(source);
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/axe.min.js`));
    // It must not keep the test worker alive once the files are done.
    server.unref();
  });
  return axeScript;
}

/** Runs axe on what the page shows now; answers one readable line per violating node. */
export async function check(page: Page, label: string): Promise<Finding[]> {
  await settled(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ url: await axeScriptUrl() });
  const violations = await page.evaluate(
    (tags) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }),
    TAGS,
  );
  const width = page.viewportSize()?.width;
  const where = `${label} (${new URL(page.url()).pathname}${new URL(page.url()).search}) at ${width}px`;
  return violations.violations.flatMap((v) =>
    v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim() ?? v.help}`),
  );
}
