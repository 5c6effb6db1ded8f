import fs from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { takeProductUnits } from "~/server/catalog/index.server";
import { products } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { placeOrder } from "../factories/sold-orders";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";

/**
 * The owner exports the products, sales go on, the owner imports the file back: the check
 * screen says what sold in between and subtracts it unless told otherwise
 * (docs/rules/catalogue-data.md, "Stock in a re-imported export").
 */
const shop = useShop();

const stockOf = async (id: string) => (await shop.db.select({ stock: products.stockQuantity }).from(products).where(eq(products.id, id)))[0]!.stock;

describe("re-importing an export after sales", () => {
  it("says '3 sold since this file was exported' before confirming, subtracts them by default, and uses the file's stock when chosen", async () => {
    const sheet = await makeProduct(shop.db, { sku: "E2E-SOLD-1", name: "Export Linen Sheet", stockQuantity: 10, unlimitedStock: false });
    const page = await asAdmin(shop);
    await page.goto("/admin/products?tab=import");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export products (CSV)" }).click()]);
    const csv = fs.readFileSync((await download.path())!);
    expect(csv.toString()).toContain('"E2E-SOLD-1","Export Linen Sheet"');

    // Three sold after the export: paid, and the stock taken, as a checkout does.
    await new Promise((r) => setTimeout(r, 5));
    await shop.db.transaction((tx) => takeProductUnits(tx, sheet.id, 3));
    await placeOrder(shop.db, { email: "buyer@example.test", paidAt: new Date().toISOString(), lines: [[sheet, 3, 1000]] });

    const importFile = async () => {
      await page.getByLabel("CSV file").setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: csv });
      await page.getByRole("button", { name: "Import Products" }).click();
      await page.getByText("3 sold since this file was exported").waitFor();
      await page.getByText("Export Linen Sheet (E2E-SOLD-1): 3 sold, file 10 → 7").waitFor();
    };

    await importFile();
    expect(await page.getByRole("radio", { name: "Subtract sales since export" }).isChecked()).toBe(true);
    expect(await page.getByRole("radio", { name: "Use the file's stock" }).isChecked()).toBe(false);
    expect(await stockOf(sheet.id)).toBe(7); // nothing written before the owner confirms
    await page.getByRole("button", { name: "Confirm Import" }).click();
    await page.getByText("Import completed: Successfully imported 1 products").first().waitFor({ timeout: 30_000 });
    expect(await stockOf(sheet.id)).toBe(7);

    await importFile();
    await page.getByRole("radio", { name: "Use the file's stock" }).check();
    await page.getByRole("button", { name: "Confirm Import" }).click();
    await expect.poll(() => stockOf(sheet.id), { timeout: 30_000 }).toBe(10);
  });
});
