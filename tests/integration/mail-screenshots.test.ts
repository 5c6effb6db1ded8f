import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchRenderer, mailScreenshot, sampleContext } from "../../scripts/mail-screenshots";
import { renderSampleMail } from "~/server/platform/mail/samples.server";

describe("npm run mails:screenshots", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchRenderer();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders a mail in Chromium to a PNG as wide as asked and as tall as the mail", async () => {
    const mail = await renderSampleMail(sampleContext(), "order-confirmation");
    for (const width of [600, 375]) {
      const png = await mailScreenshot(browser, mail.html, width);
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe("png");
      expect(meta.width).toBe(width);
      expect(meta.height).toBeGreaterThan(600);
      // Not a blank page: the image has more than one colour.
      const { channels } = await sharp(png).stats();
      expect(channels[0]!.min).toBeLessThan(channels[0]!.max);
    }
  });
});
