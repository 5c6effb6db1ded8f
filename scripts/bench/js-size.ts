import zlib from "node:zlib";
import { chromium } from "playwright-core";
import { CHROME_FLAGS, CHROME_PATH } from "./browser";

export const JS_BUDGET_RATIO = 1.15;

export type JsWeight = { url: string; files: { path: string; bytes: number; gzip: number }[]; bytes: number; gzip: number };

/**
 * The JavaScript a first visit loads: every script response (module entry, modulepreloads and
 * the route chunks hydration imports) until the network is idle, each gzip-compressed here at
 * the default level (what the shop's compression middleware sends), so both sides compare alike.
 */
export async function firstLoadJs(url: string): Promise<JsWeight> {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS.filter((f) => f !== "--headless"), headless: true });
  try {
    const page = await (await browser.newContext()).newPage();
    const pending: Promise<{ path: string; bytes: number; gzip: number } | null>[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() !== "script") return;
      pending.push(
        res
          .body()
          .then((body) => ({ path: new URL(res.url()).pathname, bytes: body.length, gzip: zlib.gzipSync(body).length }))
          .catch(() => null),
      );
    });
    const res = await page.goto(url, { waitUntil: "networkidle", timeout: 60_000 });
    if (!res || res.status() !== 200) throw new Error(`GET ${url} answered ${res?.status() ?? "nothing"}`);
    // Hydration may import a last route chunk just after the network first goes quiet.
    await page.waitForTimeout(500);
    const files = (await Promise.all(pending)).filter((f): f is NonNullable<typeof f> => f !== null);
    const unique = [...new Map(files.map((f) => [f.path, f])).values()].sort((a, b) => b.gzip - a.gzip);
    return {
      url,
      files: unique,
      bytes: unique.reduce((s, f) => s + f.bytes, 0),
      gzip: unique.reduce((s, f) => s + f.gzip, 0),
    };
  } finally {
    await browser.close();
  }
}
