import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { productVariations, products, variationTypes, variationValues } from "~/server/platform/db/schema";
import { makeProduct, makeProducts } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, seeToast, slow, unique } from "./page-helpers";

const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

// Long walks through several dialogs on a machine shared with other test runs.
vi.setConfig({ testTimeout: 180_000 });

/** The admin Products tab, searched down to the given name so each test sees only its rows. */
async function openProducts(page: Page, search: string) {
  await page.goto(`/admin/products?q=${encodeURIComponent(search)}`);
  await hydrated(page);
}

const rowOf = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

describe("admin products tab", () => {
  const shop = useShop();
  const adminPage = async () => slow(await asAdmin(shop));
  const fresh = async (id: string) => (await shop.db.select().from(products).where(eq(products.id, id)))[0]!;

  it("shows every column and badge", async () => {
    const tag = unique("Columns");
    await makeProduct(shop.db, { name: `${tag} Featured`, featured: true, priceCents: 8900, originalPriceCents: 12000, reviewCount: 31, rating: 4.25 });
    await makeProduct(shop.db, { name: `${tag} Unlimited`, unlimitedStock: true, stockQuantity: 0 });
    await makeProduct(shop.db, { name: `${tag} Sold Out`, stockQuantity: 0, reviewCount: 0, rating: 0 });
    await makeProduct(shop.db, { name: `${tag} Hidden`, active: false, stockQuantity: 7, category: "Decor" });
    const page = await adminPage();
    await openProducts(page, tag);

    const headers = (await page.getByRole("columnheader").allInnerTexts()).map((h) => h.trim()).filter(Boolean);
    expect(headers).toEqual(["Name", "Category", "Price", "Stock", "Status", "Rating", "Actions"]);
    await page.getByRole("checkbox", { name: "Select all products on this page" }).waitFor();

    const featured = rowOf(page, `${tag} Featured`);
    await featured.getByText("Featured", { exact: true }).waitFor();
    await featured.getByText("$89.00").waitFor();
    const struck = featured.getByText("$120.00");
    expect(await struck.evaluate((el) => getComputedStyle(el.closest(".line-through")!).textDecorationLine)).toBe("line-through");
    await featured.getByText("4.3").waitFor();
    await featured.getByText("(31)").waitFor();

    await rowOf(page, `${tag} Unlimited`).getByText("Unlimited", { exact: true }).waitFor();
    const zero = rowOf(page, `${tag} Sold Out`).getByText("0", { exact: true });
    expect(await zero.getAttribute("data-variant")).toBe("destructive");
    await rowOf(page, `${tag} Sold Out`).getByLabel("No rating").waitFor();
    const hidden = rowOf(page, `${tag} Hidden`);
    await hidden.getByText("Inactive").waitFor();
    await hidden.getByText("Decor").waitFor();
    expect(await hidden.getByText("7", { exact: true }).getAttribute("data-variant")).toBe("outline");
    await rowOf(page, `${tag} Unlimited`).getByText("Active", { exact: true }).waitFor();
  });

  it("searches, sorts and pages on the server", async () => {
    const tag = unique("Paged").replace(" ", "");
    await makeProducts(shop.db, 30, (i) => ({ name: `${tag} ${String(i).padStart(2, "0")}`, priceCents: 5000 - i * 10 }));
    const page = await adminPage();
    await page.goto("/admin/products");
    await hydrated(page);
    await page.getByRole("searchbox", { name: "Search products" }).fill(tag);
    await page.waitForURL((u) => u.searchParams.get("q") === tag);
    await page.getByText("Showing 1–25 of 30 products").waitFor();
    await page.getByRole("link", { name: "Next" }).click();
    await page.getByText("Showing 26–30 of 30 products").waitFor();
    expect(await page.getByRole("row").count()).toBe(6);

    await page.getByRole("button", { name: "Price" }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "price" && !u.searchParams.has("page"));
    await page.getByText("Showing 1–25 of 30 products").waitFor();
    expect(await page.getByRole("row").nth(1).innerText()).toContain(`${tag} 29`);
    expect(await page.getByRole("columnheader", { name: "Price" }).getAttribute("aria-sort")).toBe("ascending");
  });

  it("activates and deactivates at once, with the specified messages", async () => {
    const p = await makeProduct(shop.db, { name: unique("Toggle"), active: true });
    const page = await adminPage();
    await openProducts(page, p.name);
    await page.getByRole("button", { name: `Deactivate ${p.name}` }).click();
    await rowOf(page, p.name).getByText("Inactive").waitFor();
    await seeToast(page, "Product deactivated successfully");
    expect((await fresh(p.id)).active).toBe(false);
    await page.getByRole("button", { name: `Activate ${p.name}` }).click();
    await seeToast(page, "Product activated successfully");
    expect((await fresh(p.id)).active).toBe(true);
  });

  it("links to the product page in a new tab and deletes only after a confirmation", async () => {
    const p = await makeProduct(shop.db, { name: unique("Doomed") });
    const page = await adminPage();
    await openProducts(page, p.name);
    const view = page.getByRole("link", { name: `View ${p.name} in the shop` });
    expect(await view.getAttribute("href")).toBe(`/product/${p.id}`);
    expect(await view.getAttribute("target")).toBe("_blank");

    await page.getByRole("button", { name: `Delete ${p.name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Product" });
    await confirm.getByText(`Are you sure you want to delete "${p.name}"? This action cannot be undone.`).waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await fresh(p.id)).toBeDefined();

    await page.getByRole("button", { name: `Delete ${p.name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await seeToast(page, "Product deleted successfully");
    await page.getByText(`No products match "${p.name}".`).waitFor();
    expect(await shop.db.select().from(products).where(eq(products.id, p.id))).toHaveLength(0);
  });

  it("edits a product in the dialog: every field, unlimited stock hides the quantity, empty original price", async () => {
    const p = await makeProduct(shop.db, { name: unique("Editable"), priceCents: 4000, originalPriceCents: 5000, stockQuantity: 3 });
    const page = await adminPage();
    // The preview loads the typed address; nothing leaves this machine, so serve that host here.
    await page.route("https://images.example.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "image/png", body: TINY_PNG }),
    );
    await openProducts(page, p.name);
    await page.getByRole("button", { name: `Edit ${p.name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByLabel("Product Name").waitFor();
    expect(await dialog.getByLabel("Price", { exact: true }).inputValue()).toBe("40.00");
    expect(await dialog.getByLabel("Price", { exact: true }).getAttribute("step")).toBe("0.01");
    expect(await dialog.getByLabel("Original Price").getAttribute("step")).toBe("0.01");
    expect(await dialog.getByLabel("Stock", { exact: true }).inputValue()).toBe("3");

    const renamed = `${p.name} v2`;
    await dialog.getByLabel("Product Name").fill(renamed);
    await dialog.getByLabel("SKU").fill(`SKU-${randomBytes(3).toString("hex")}`);
    await dialog.getByLabel("Description").fill("Now even softer.");
    await dialog.getByLabel("Image URL").fill("https://images.example.test/a.jpg, https://images.example.test/b.jpg");
    expect(await dialog.getByRole("img", { name: "Preview of the product image" }).getAttribute("src")).toBe("https://images.example.test/a.jpg");
    await dialog.getByLabel("Price", { exact: true }).fill("35.5");
    await dialog.getByLabel("Original Price").fill("");
    await dialog.getByRole("switch", { name: "Unlimited Stock" }).click();
    expect(await dialog.getByLabel("Stock", { exact: true }).count()).toBe(0);
    await dialog.getByLabel("Category").selectOption("Furniture");
    await dialog.getByRole("switch", { name: "Featured" }).click();
    await dialog.getByRole("switch", { name: "Active" }).click();
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await seeToast(page, "Product updated successfully");
    await dialog.waitFor({ state: "detached" });
    const saved = await fresh(p.id);
    expect(saved).toMatchObject({
      name: renamed,
      description: "Now even softer.",
      priceCents: 3550,
      originalPriceCents: null,
      unlimitedStock: true,
      stockQuantity: 0,
      category: "Furniture",
      featured: true,
      active: false,
    });
    await rowOf(page, renamed).getByText("Unlimited").waitFor();
  });

  it("refuses bad prices and stock beside the field and saves nothing", async () => {
    const p = await makeProduct(shop.db, { name: unique("Strict"), priceCents: 1000 });
    const page = await adminPage();
    await openProducts(page, p.name);
    await page.getByRole("button", { name: `Edit ${p.name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    const price = dialog.getByLabel("Price", { exact: true });
    await price.waitFor();
    for (const [typed, message] of [
      ["12.345", "Price can have at most 2 decimals"],
      ["-5", "Price cannot be negative"],
      ["", "Price is required"],
    ]) {
      await price.fill(typed!);
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByText(message!).waitFor();
      expect(await price.getAttribute("aria-invalid")).toBe("true");
    }
    await price.fill("10");
    await dialog.getByLabel("Stock", { exact: true }).fill("-1");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await dialog.getByText("Stock quantity cannot be negative").waitFor();
    await dialog.getByLabel("Product Name").fill("   ");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await dialog.getByText("Product name is required").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await fresh(p.id)).toMatchObject({ name: p.name, priceCents: 1000, stockQuantity: p.stockQuantity });
  });

  it("adds a product with the same dialog, empty", async () => {
    const name = unique("Brand New");
    const page = await adminPage();
    await openProducts(page, name);
    await page.getByRole("button", { name: "Add Product" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Product" });
    await dialog.getByLabel("Product Name").fill(name);
    await dialog.getByLabel("Price", { exact: true }).fill("19.99");
    await dialog.getByLabel("Stock", { exact: true }).fill("5");
    await dialog.getByLabel("Category").selectOption("Decor");
    await dialog.getByText("Save the product first, then add its variations.").waitFor();
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await seeToast(page, "Product created successfully");
    await rowOf(page, name).getByText("$19.99").waitFor();
    const [row] = await shop.db.select().from(products).where(eq(products.name, name));
    expect(row).toMatchObject({ priceCents: 1999, originalPriceCents: null, stockQuantity: 5, category: "Decor" });
  });

  it("attaches, edits and removes (softly) a product's variations", async () => {
    const typeName = unique("Size");
    const [type] = await shop.db.insert(variationTypes).values({ name: typeName }).returning();
    const [large] = await shop.db.insert(variationValues).values({ variationTypeId: type!.id, value: "Large" }).returning();
    const p = await makeProduct(shop.db, { name: unique("Varied") });
    const page = await adminPage();
    await openProducts(page, p.name);
    await page.getByRole("button", { name: `Edit ${p.name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByRole("heading", { name: "Product Variations" }).waitFor();
    await dialog.getByLabel("Add a variation").selectOption({ label: `${typeName}: Large` });
    await dialog.getByRole("button", { name: "Add Variation" }).click();
    await seeToast(page, "Variation added successfully");
    const adjustment = dialog.getByLabel(`Price adjustment ($) for ${typeName}: Large`);
    await adjustment.fill("2.50");
    await dialog.getByLabel(`Stock for ${typeName}: Large`).focus();
    await expect
      .poll(async () => (await shop.db.select().from(productVariations).where(eq(productVariations.productId, p.id)))[0]?.priceAdjustmentCents)
      .toBe(250);
    await dialog.getByLabel(`Stock for ${typeName}: Large`).fill("-2");
    await dialog.getByLabel(`SKU suffix for ${typeName}: Large`).focus();
    await dialog.getByText("Variation stock cannot be negative").waitFor();
    await seeToast(page, "Failed to update variation");

    await dialog.getByRole("button", { name: `Remove ${typeName}: Large` }).click();
    await seeToast(page, "Variation removed successfully");
    await dialog.getByText("No variations attached yet.").waitFor();
    const [row] = await shop.db.select().from(productVariations).where(eq(productVariations.variationValueId, large!.id));
    expect(row).toMatchObject({ active: false, stockQuantity: 0 });
  });

  it("reports a conflict when another admin saved the product meanwhile, and loads their version", async () => {
    const p = await makeProduct(shop.db, { name: unique("Contested") });
    const page = await adminPage();
    await openProducts(page, p.name);
    await page.getByRole("button", { name: `Edit ${p.name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByLabel("Product Name").waitFor();
    await shop.db.$client.query("update products set name = $1, updated_at = now() where id = $2", [`${p.name} (theirs)`, p.id]);
    await dialog.getByLabel("Product Name").fill(`${p.name} (mine)`);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await seeToast(page, "Failed to update product");
    await dialog.getByText("Someone else saved this product while you were editing it.").waitFor();
    expect((await fresh(p.id)).name).toBe(`${p.name} (theirs)`);
    await dialog.getByRole("button", { name: "Load latest version" }).click();
    await expect.poll(() => dialog.getByLabel("Product Name").inputValue()).toBe(`${p.name} (theirs)`);
  });

  it("bulk edits the selected products: only the checked fields, with the specified messages", async () => {
    const tag = unique("Bulk");
    const ps = await makeProducts(shop.db, 3, (i) => ({ name: `${tag} ${i}`, priceCents: 1000 * (i + 1), featured: false, stockQuantity: 4 }));
    const page = await adminPage();
    await openProducts(page, tag);
    await page.getByRole("checkbox", { name: `Select ${tag} 0` }).click();
    await page.getByRole("checkbox", { name: `Select ${tag} 1` }).click();
    await page.getByText("2 selected").waitFor();
    await page.getByRole("button", { name: "Bulk Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Bulk Edit" });
    await dialog.getByRole("button", { name: "Update 2 Products" }).click();
    await seeToast(page, "No fields selected");
    await page.getByText("Please select at least one field to update").waitFor();

    for (const field of ["Category", "Price Adjustment", "Set Exact Price", "Original Price", "Stock Quantity", "Unlimited Stock", "Active Status", "Featured Product"]) {
      await dialog.getByRole("checkbox", { name: field, exact: true }).waitFor();
    }
    await dialog.getByRole("checkbox", { name: "Price Adjustment" }).click();
    await dialog.getByLabel("Adjustment type").selectOption("percentage");
    await dialog.getByLabel("Adjustment value").fill("-150");
    await dialog.getByRole("button", { name: "Update 2 Products" }).click();
    await seeToast(page, "Failed to update products");
    await dialog.getByText("This adjustment would make the price of 2 products negative. Nothing was changed.").waitFor();

    await dialog.getByLabel("Adjustment value").fill("10");
    await dialog.getByRole("checkbox", { name: "Featured Product" }).click();
    await dialog.getByRole("switch", { name: "Featured Product value" }).click();
    await dialog.getByRole("button", { name: "Update 2 Products" }).click();
    await seeToast(page, "2 products updated successfully");
    await dialog.waitFor({ state: "detached" });
    const rows = await shop.db.select().from(products).where(inArray(products.id, ps.map((p) => p.id)));
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName[`${tag} 0`]).toMatchObject({ priceCents: 1100, featured: true, stockQuantity: 4 });
    expect(byName[`${tag} 1`]).toMatchObject({ priceCents: 2200, featured: true, stockQuantity: 4 });
    expect(byName[`${tag} 2`]).toMatchObject({ priceCents: 3000, featured: false });
    expect(await page.getByRole("button", { name: "Bulk Edit" }).count()).toBe(0);
  });

  it("bulk stock over sales made since the list was loaded is refused, and nothing changes", async () => {
    const tag = unique("BulkSold");
    const ps = await makeProducts(shop.db, 2, (i) => ({ name: `${tag} ${i}`, stockQuantity: 10, unlimitedStock: false }));
    const page = await adminPage();
    await openProducts(page, tag);
    await page.getByRole("checkbox", { name: `Select ${tag} 0` }).click();
    await page.getByRole("checkbox", { name: `Select ${tag} 1` }).click();
    await page.getByRole("button", { name: "Bulk Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Bulk Edit" });
    // Three sell while the owner types.
    await shop.db.update(products).set({ stockQuantity: 7 }).where(eq(products.id, ps[0]!.id));
    await dialog.getByLabel("New stock quantity").fill("10");
    await dialog.getByRole("button", { name: "Update 2 Products" }).click();
    await dialog.getByText("3 sold since you loaded this list. Nothing was changed: reload the list to see the stock now, then set it again.").waitFor();
    const rows = await shop.db.select().from(products).where(inArray(products.id, ps.map((p) => p.id)));
    expect(Object.fromEntries(rows.map((r) => [r.name, r.stockQuantity]))).toEqual({ [`${tag} 0`]: 7, [`${tag} 1`]: 10 });
  });

  it("selects every row on the page with the select-all box", async () => {
    const tag = unique("All");
    await makeProducts(shop.db, 4, (i) => ({ name: `${tag} ${i}` }));
    const page = await adminPage();
    await openProducts(page, tag);
    await page.getByRole("checkbox", { name: "Select all products on this page" }).click();
    await page.getByText("4 selected").waitFor();
    await page.getByRole("checkbox", { name: "Select all products on this page" }).click();
    expect(await page.getByText("selected").count()).toBe(0);
  });
});
