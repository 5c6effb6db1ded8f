import type { BrowserContext, Page } from "playwright-core";

/**
 * What a browser test's pages saw, kept so that a failure says more than "timed out": a flaky
 * failure on a busy CI machine is rarely reproduced, so its one report has to carry the cause.
 */
const seen = new WeakMap<Page, string[]>();
const KEEP = 60;
/** Requests worth a line: the page's loads, its code and its data (not images, fonts or styles). */
const WATCHED = new Set(["document", "script", "fetch", "xhr"]);

/** Records the page's script and console errors, its loads, code and data requests, and any request that failed or answered ≥ 400. */
export function watchPage(page: Page) {
  const events: string[] = [];
  seen.set(page, events);
  const started = Date.now();
  const note = (line: string) => {
    events.push(`+${Date.now() - started} ms ${line}`);
    if (events.length > KEEP) events.shift();
  };
  page.on("pageerror", (e) => note(`script error: ${e.message}`));
  page.on("console", (m) => void (m.type() === "error" && note(`console error: ${m.text()}`)));
  page.on("request", (r) => void (WATCHED.has(r.resourceType()) && note(`→ ${r.method()} ${r.url()} (${r.resourceType()})`)));
  page.on("requestfailed", (r) => note(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText ?? "?"})`));
  page.on("response", (r) => void ((r.status() >= 400 || WATCHED.has(r.request().resourceType())) && note(`← ${r.status()} ${r.url()}`)));
  page.on("framenavigated", (f) => void (f === page.mainFrame() && note(`address ${f.url()} (a load, or a history entry written)`)));
}

/** For an afterEach: when the test failed, prints what its pages and the shop showed. */
export async function reportIfFailed(ctx: { task: { name: string; result?: { state?: string } } }, contexts: BrowserContext[], shop: { output: () => string } | undefined) {
  if (ctx.task.result?.state !== "fail" || !shop) return;
  console.error(`What the browser and the shop saw when "${ctx.task.name}" failed:\n${await failureReport(contexts, shop.output())}`);
}

/** A failed test's report: each open page's address, toasts and recorded events, then the end of the server's output. */
export async function failureReport(contexts: BrowserContext[], serverOutput: string): Promise<string> {
  const parts: string[] = [];
  for (const page of contexts.flatMap((c) => c.pages())) {
    const toasts = await page
      .locator("[data-sonner-toast]")
      .allTextContents()
      .catch(() => ["(could not be read)"]);
    const events = (seen.get(page) ?? []).map((e) => `  ${e}`);
    parts.push([`page ${page.url()}`, `  toasts: ${toasts.length ? toasts.join(" | ") : "none"}`, ...events].join("\n"));
  }
  parts.push(`server output (end):\n${serverOutput.slice(-4000) || "(none)"}`);
  return parts.join("\n");
}
