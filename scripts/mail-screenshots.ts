/**
 * `npm run mails:screenshots`: every mail of the shop, filled with sample data in the default
 * look (Site Settings' defaults), rendered in Chromium at 600 px (a desktop mail program's reading
 * pane) and 375 px (a phone) into docs/mails/<mail>-<width>.png. Product pictures are the demo
 * illustrations, served to the page in place of the shop's /resized/ addresses, so no shop needs
 * to run. Chromium: CHROMIUM_PATH, default /usr/bin/chromium.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { resolveMailTemplates } from "~/lib/mail-templates";
import type { SiteSettings } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { renderSampleMail, SAMPLE_LINES, SAMPLE_MAILS } from "~/server/platform/mail/samples.server";
import { mailBrand } from "~/server/platform/mail/templates/brand.server";
import type { MailContext } from "~/server/platform/mail/templates/context.server";
import { renderDemoImage } from "~/server/seed/demo-images.server";

export const SCREENSHOT_WIDTHS = [600, 375] as const;
const BASE_URL = "https://shop.example";
const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", "--disable-sync"];

export const sampleContext = (): MailContext => ({
  brand: mailBrand(DEFAULT_SETTINGS as unknown as SiteSettings, BASE_URL),
  templates: resolveMailTemplates({}),
});

/** The sample lines with pictures at the shop's own upload addresses (served by `launchRenderer`). */
const PICTURED_LINES = SAMPLE_LINES.map((l, i) => ({ ...l, imageUrl: `/media/sample-${i}.webp` }));
const MOTIFS = [
  { hue: 35, motif: "duvet" as const },
  { hue: 210, motif: "pillow" as const },
];

export async function launchRenderer(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS, headless: true });
}

/** One mail's HTML as a PNG, `width` pixels wide and as tall as the mail. Nothing leaves the machine. */
export async function mailScreenshot(browser: Browser, html: string, width: number): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width, height: 600 }, deviceScaleFactor: 1 });
  try {
    await page.route("**/*", async (route) => {
      const url = new URL(route.request().url());
      const sample = /^\/resized\/\d+\/sample-(\d+)\.webp$/.exec(url.pathname);
      if (url.origin === BASE_URL && sample) {
        const m = MOTIFS[Number(sample[1]) % MOTIFS.length]!;
        const body = await renderDemoImage({ ...m, width: 128, height: 128 });
        return route.fulfill({ status: 200, contentType: "image/webp", body });
      }
      // Anything else (a logo on another host) is not fetched: the mail must read without it.
      return route.abort();
    });
    await page.setContent(html, { waitUntil: "load" });
    return await page.screenshot({ fullPage: true, type: "png" });
  } finally {
    await page.close();
  }
}

async function main() {
  const out = path.resolve("docs/mails");
  fs.mkdirSync(out, { recursive: true });
  const ctx = sampleContext();
  const browser = await launchRenderer();
  try {
    for (const kind of SAMPLE_MAILS) {
      const mail = await renderSampleMail(ctx, kind, { lines: PICTURED_LINES });
      for (const width of SCREENSHOT_WIDTHS) {
        const file = path.join(out, `${kind}-${width}.png`);
        fs.writeFileSync(file, await mailScreenshot(browser, mail.html, width));
        console.log(`  ${path.relative(process.cwd(), file)}  (${mail.subject})`);
      }
    }
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
