import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { toast } from "./page-helpers";

// The migration downloads from a server on 127.0.0.1, which only this setting allows.
const shop = useShop({ env: { IMAGE_FETCH_ALLOW_PRIVATE: "true" } });

function csvWithErrors(rows: number) {
  const lines = ["title,price,sku,category"];
  for (let i = 1; i <= rows; i++) {
    if (i === 2) lines.push(`,5.00,E2E-${i},Bedding`); // row 3: no title
    else if (i === 4) lines.push(`Comma Price ${i},"12,50",E2E-${i},Bedding`); // row 5
    else lines.push(`E2E Sheet ${i},${(10 + (i % 50)).toFixed(2)},E2E-${i},Bedding`);
  }
  return `${lines.join("\n")}\n`;
}

describe("the Import Products tab", () => {
  it("refuses a file that is not a CSV", async () => {
    const page = await asAdmin(shop);
    await page.goto("/admin/products?tab=import");
    await page.getByLabel("CSV file").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("not a csv") });
    await page.getByText("Invalid file type: Please select a CSV file").first().waitFor();
    expect(await page.getByRole("button", { name: "Import Products" }).isDisabled()).toBe(true);
  });

  it("says 'Import failed' with the server's reason, or 'Unknown error occurred' when there is none", async () => {
    const page = await asAdmin(shop);
    await page.goto("/admin/products?tab=import");
    await page.getByLabel("CSV file").setInputFiles({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("") });
    await page.getByRole("button", { name: "Import Products" }).click();
    await toast(page, "Import failed").waitFor();
    await toast(page, "The file is empty").waitFor();

    // An answer that says nothing usable (a proxy's broken JSON).
    await page.route("**/admin/products/import", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 502, contentType: "application/json", body: "{" }) : route.continue(),
    );
    await page.getByLabel("CSV file").setInputFiles({ name: "ok.csv", mimeType: "text/csv", buffer: Buffer.from(csvWithErrors(3)) });
    await page.getByRole("button", { name: "Import Products" }).click();
    await toast(page, "Unknown error occurred").waitFor();
    expect((await shop.db.select({ n: sql<number>`count(*)::int` }).from(products))[0]!.n).toBe(0);
  });

  it("checks a file, imports it after confirmation with progress, and shows the summary and row errors", async () => {
    const page = await asAdmin(shop);
    await page.goto("/admin/products?tab=import");
    await page.getByRole("heading", { name: "Product Management" }).waitFor();
    await page.getByLabel("CSV file").setInputFiles({ name: "sheets.csv", mimeType: "text/csv", buffer: Buffer.from(csvWithErrors(3000)) });
    await page.getByRole("button", { name: "Import Products" }).click();

    // The dry run: format, counts and the first row errors, nothing written yet.
    await page.getByText("Detected format:").waitFor();
    await page.getByText("Generic CSV").first().waitFor();
    await page.getByText("Would create").waitFor();
    await page.getByText("Row 3: Missing product title").waitFor();
    await page.getByText("Row 5: Invalid price '12,50': use a dot for decimals (for example 12.50)").waitFor();
    expect((await shop.db.select({ n: sql<number>`count(*)::int` }).from(products))[0]!.n).toBe(0);

    // Record every value the progress bar shows while the import runs.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __progress: number[] }).__progress = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Import progress"]');
        const v = bar?.getAttribute("aria-valuenow");
        if (v !== null && v !== undefined && seen.at(-1) !== Number(v)) seen.push(Number(v));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const streams: string[] = [];
    page.on("response", (r) => {
      if (r.url().endsWith("/events")) streams.push(r.headers()["content-type"] ?? "");
    });
    await page.getByRole("button", { name: "Confirm Import" }).click();

    await page.getByText("Import completed: Successfully imported 2998 products").first().waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
    expect(seen.length).toBeGreaterThan(0);
    // Progress arrived as server-sent events.
    expect(streams[0]).toMatch(/^text\/event-stream/);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const errors = page.getByRole("list", { name: "Errors" });
    expect(await errors.getByRole("listitem").allTextContents()).toEqual([
      "Row 3: Missing product title",
      "Row 5: Invalid price '12,50': use a dot for decimals (for example 12.50)",
    ]);
    const [sheet] = await shop.db.select().from(products).where(eq(products.sku, "E2E-10"));
    expect(sheet).toMatchObject({ name: "E2E Sheet 10", priceCents: 2000, category: "Bedding" });

    // The result is still there after leaving and coming back.
    await page.goto("/admin/products?tab=import");
    await page.getByText("Import completed: Successfully imported 2998 products").first().waitFor();
  });
});

describe("the Migrate Images tab", () => {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#336699" } }).png().toBuffer();
    server = http.createServer((req, res) => {
      if (req.url === "/ok.png") res.writeHead(200, { "content-type": "image/png" }).end(png);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("migrates every external image and lists each product's result", async () => {
    const good = await makeProduct(shop.db, { name: "Migrating Lamp", imageUrl: `${base}/ok.png` });
    await makeProduct(shop.db, { name: "Broken Link Vase", imageUrl: `${base}/gone.png` });
    const page = await asAdmin(shop);
    await page.goto("/admin/products?tab=migrate");
    await page.getByRole("button", { name: "Migrate All Images" }).click();
    await page.getByText("Migration Complete: Successfully migrated 1 images. 1 failed.").first().waitFor({ timeout: 30_000 });
    const table = page.getByLabel("Migration results");
    await table.getByRole("row", { name: /Migrating Lamp\s+Migrated/ }).waitFor();
    await table.getByRole("row", { name: /Broken Link Vase\s+Failed\s+Not found \(HTTP 404\)/ }).waitFor();
    const [row] = await shop.db.select({ u: products.imageUrl }).from(products).where(eq(products.id, good.id));
    expect(row!.u).toMatch(/^\/media\/products\//);
    const image = await fetch(`${shop.baseUrl}${row!.u}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
  });
});
