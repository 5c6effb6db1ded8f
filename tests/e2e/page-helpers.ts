import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";

/** The machine is shared by parallel test runs: give each step of this page 30 s, not the harness's 10 s. */
export function slow<P extends Page>(page: P): P {
  page.setDefaultTimeout(30_000);
  return page;
}

/** Waits until React Router has hydrated the page: a click before it would do nothing. */
export const hydrated = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules);

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
