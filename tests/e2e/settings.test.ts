import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { asAdmin } from "../factories/users";
import { makePng, makePngBomb, SVG_IMAGE } from "../factories/images";
import { useShop } from "./harness";
import { hydrated } from "./page-helpers";

const shop = useShop();

/** An admin page; navigations get extra time because the 2-core machine is shared by several test runs. */
async function adminPage() {
  const page = await asAdmin(shop);
  page.setDefaultNavigationTimeout(30_000);
  return page;
}

const uploadedFiles = () => {
  const dir = path.join(shop.shop.dataDir, "uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^(logo|hero)-/.test(f)) : [];
};

async function openSettings(page: Page) {
  await page.goto("/admin/site-settings");
  await page.getByRole("heading", { name: "Site Settings" }).waitFor();
  const saveButton = page.getByRole("button", { name: "Save Changes" });
  await saveButton.waitFor();
  // The form streams in after the page shell; a file chosen before it is hydrated would be ignored.
  await hydrated(page, saveButton);
}

async function tab(page: Page, name: string) {
  await page.getByRole("tab", { name }).click();
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.getByText("Site settings saved successfully").first().waitFor();
}

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

describe("admin site settings in the browser", () => {
  it("changes every field and the storefront shows each one on the next request", async () => {
    const page = await adminPage();
    await openSettings(page);

    await page.getByLabel("Logo Text").fill("Moonlit Linen Co");
    await tab(page, "Theme");
    await page.getByLabel("Primary Color (HSL)").fill("hsl(12, 80%, 40%)");
    await page.getByLabel("Secondary Color (HSL)").fill("hsl(40, 30%, 92%)");
    await tab(page, "Hero Section");
    await page.getByLabel("Hero Title").fill("Rest Like Never Before");
    await page.getByLabel("Hero Subtitle").fill("Stone-washed linen for every season");
    await page.getByLabel("Hero Description").fill("Breathable sheets woven in Portugal.");
    await page.getByLabel("Primary Button Text").fill("Shop Linen");
    await page.getByLabel("Secondary Button Text").fill("See Colours");
    await tab(page, "Featured Section");
    await page.getByLabel("Section Title").fill("Our Favourites This Month");
    await page.getByLabel("Section Description").fill("Hand-picked by the team.");
    await tab(page, "Footer");
    await page.getByLabel("Brand Description").fill("Slow-made bedding from a small studio.");
    await page.getByLabel("Newsletter Title").fill("Letters from the Loft");
    await page.getByLabel("Newsletter Description").fill("One calm email a month.");
    await page.getByLabel("Copyright Text").fill("© 2031 Moonlit Linen Co");

    // Saving state, then the confirmation.
    const button = page.getByRole("button", { name: /Save Changes|Saving\.\.\./ });
    await button.click();
    await toast(page, "Site settings saved successfully").waitFor();

    await page.goto("/");
    const header = page.locator("header").first();
    expect(await header.textContent()).toContain("Moonlit Linen Co");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Rest Like Never Before");
    const body = await page.locator("body").textContent();
    for (const text of [
      "Stone-washed linen for every season",
      "Breathable sheets woven in Portugal.",
      "Shop Linen",
      "See Colours",
      "Our Favourites This Month",
      "Hand-picked by the team.",
      "Slow-made bedding from a small studio.",
      "Letters from the Loft",
      "One calm email a month.",
      "© 2031 Moonlit Linen Co",
    ]) {
      expect(body).toContain(text);
    }
    const style = await page.locator("html").getAttribute("style");
    expect(style).toContain("--primary:hsl(12, 80%, 40%)");
    expect(style).toContain("--secondary:hsl(40, 30%, 92%)");
    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--primary").trim(),
    );
    expect(primary).toBe("hsl(12, 80%, 40%)");

    // The editor shows what was saved after a reload.
    await openSettings(page);
    expect(await page.getByLabel("Logo Text").inputValue()).toBe("Moonlit Linen Co");
  });

  it("uploads and removes a logo and a hero image", async () => {
    const page = await adminPage();
    await openSettings(page);

    await page
      .getByLabel("Logo Image")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await makePng(120, 40) });
    await toast(page, "Logo uploaded successfully").waitFor();
    const preview = page.getByRole("img", { name: "Logo Image preview" });
    const logoSrc = (await preview.getAttribute("src"))!;
    expect(logoSrc).toMatch(/^\/media\/logo-\d{13}\.png$/);

    await tab(page, "Hero Section");
    await page
      .getByLabel("Background Image")
      .setInputFiles({ name: "hero.png", mimeType: "image/png", buffer: await makePng(800, 400) });
    await toast(page, "Hero background uploaded successfully").waitFor();
    const heroSrc = (await page.getByRole("img", { name: "Background Image preview" }).getAttribute("src"))!;
    expect(heroSrc).toMatch(/^\/media\/hero-\d{13}\.png$/);
    await save(page);

    await page.goto("/");
    expect(await page.locator("header img").first().getAttribute("src")).toBe(logoSrc);
    expect(await page.locator(`section img[src="${heroSrc}"]`).count()).toBe(1);
    const served = await page.request.get(logoSrc);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(served.headers()["cache-control"]).toContain("immutable");

    await openSettings(page);
    await page.getByRole("button", { name: "Remove Image" }).click();
    await tab(page, "Hero Section");
    await page.getByRole("button", { name: "Remove Image" }).click();
    await save(page);
    await page.goto("/");
    expect(await page.locator("header img").count()).toBe(0);
    expect(await page.locator(`img[src="${heroSrc}"]`).count()).toBe(0);
    // The removed files are gone from storage too.
    expect((await page.request.get(logoSrc)).status()).toBe(404);
  });

  it("refuses bad images with 'Failed to upload image' and the reason, storing nothing", async () => {
    const page = await adminPage();
    await openSettings(page);
    const before = uploadedFiles();
    const cases = [
      { name: "logo.svg", mimeType: "image/svg+xml", buffer: SVG_IMAGE, reason: "SVG images are not allowed" },
      {
        name: "photo.png",
        mimeType: "image/png",
        buffer: Buffer.from("<html><body>hi</body></html>"),
        reason: "not a supported image",
      },
      {
        name: "cut.png",
        mimeType: "image/png",
        buffer: (await makePng(400, 300)).subarray(0, 200),
        reason: "damaged or incomplete",
      },
      { name: "bomb.png", mimeType: "image/png", buffer: makePngBomb(), reason: "20000×20000 pixels" },
      { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(6 * 1024 * 1024, 1), reason: "larger than 5 MB" },
    ];
    for (const c of cases) {
      await page.getByLabel("Logo Image").setInputFiles({ name: c.name, mimeType: c.mimeType, buffer: c.buffer });
      await toast(page, "Failed to upload image").filter({ hasText: c.reason }).waitFor();
      await page.getByRole("alert").filter({ hasText: c.reason }).waitFor();
    }
    expect(uploadedFiles()).toEqual(before);
  });

  it("shows a live swatch and refuses a colour that is not valid HSL", async () => {
    const page = await adminPage();
    await openSettings(page);
    await tab(page, "Theme");
    const field = page.getByLabel("Primary Color (HSL)");
    const swatch = page.getByTestId("theme_colors.primary-swatch");
    await field.fill("hsl(120, 60%, 35%)");
    expect(await swatch.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(36, 143, 36)");
    await field.fill("red; } body { display: none");
    await page.getByText("Enter a colour like hsl(220, 70%, 50%)").waitFor();
    expect((await swatch.getAttribute("style")) ?? "").toBe("");

    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Failed to save site settings").waitFor();
    await page.getByText("Primary Color (HSL) must be a colour like hsl(220, 70%, 50%)", { exact: true }).waitFor();
    await page.goto("/");
    expect(await page.locator("html").getAttribute("style")).not.toContain("display");
    expect(await page.locator("body").isVisible()).toBe(true);
  });
});
