import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SETTING_KEYS } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { fieldName } from "~/lib/site-settings-form";
import { action as productsAction } from "~/routes/admin/products/index";
import { loader as editorLoader } from "~/routes/admin/products/editor";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin/site-settings";
import { products } from "~/server/platform/db/schema";
import { importProducts } from "~/server/catalog/import/run-import.server";
import { getLowStockDefault } from "~/server/catalog/products/inventory-settings.server";
import { makeCategory, makeProduct } from "../factories/products";
import { makeAdmin, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, productForm, settle } from "./admin-catalog-helpers";
import { args } from "./route-args";

const t = useTestDatabase();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  await makeCategory(t.db, { name: "Bedding" });
});

async function row(id: string) {
  const [p] = await t.db.select().from(products).where(eq(products.id, id));
  return p!;
}

function settingsForm(threshold?: string) {
  const form = new FormData();
  form.set("intent", "save");
  for (const key of SETTING_KEYS) {
    for (const [field, value] of Object.entries(DEFAULT_SETTINGS[key])) form.set(fieldName(key, field), value);
  }
  if (threshold !== undefined) form.set("inventory.low_stock_threshold", threshold);
  return form;
}

async function saveSettings(form: FormData) {
  const request = await requestAs(t.db, admin, "/admin/site-settings", { method: "POST", body: form });
  return settle(() => settingsAction(args(request)));
}

describe("the shop's low-stock threshold (Site Settings, Inventory)", () => {
  it("is 5 until the owner saves another, which the settings page then shows", async () => {
    expect(await getLowStockDefault(t.db)).toBe(5);
    const page = await get(t.db, settingsLoader, admin, "/admin/site-settings");
    expect(await page.body.lowStockThreshold).toBe(5);

    expect((await saveSettings(settingsForm("12"))).body).toEqual({ ok: true, message: "Site settings saved successfully" });
    expect(await getLowStockDefault(t.db)).toBe(12);
    expect(await (await get(t.db, settingsLoader, admin, "/admin/site-settings")).body.lowStockThreshold).toBe(12);

    // A form without the field (an older page) leaves it alone.
    await saveSettings(settingsForm());
    expect(await getLowStockDefault(t.db)).toBe(12);
    await saveSettings(settingsForm("5"));
  });

  it.each([
    ["", "Low-stock threshold is required"],
    ["-1", "Low-stock threshold cannot be negative"],
    ["2.5", "Low-stock threshold must be a whole number"],
    ["many", "Low-stock threshold must be a whole number"],
    ["2000000", "Low-stock threshold must be at most 1,000,000"],
  ])("refuses %j beside the field and saves nothing", async (bad, message) => {
    const res = await saveSettings(settingsForm(bad));
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors["inventory.low_stock_threshold"]).toBe(message);
    expect(res.body.reason).toBe(`Inventory: ${message}`);
    expect(await getLowStockDefault(t.db)).toBe(5);
  });
});

describe("the product form's low-stock threshold and cost per item", () => {
  it("saves both, blank meaning the shop's default and no cost, and the editor loads them back", async () => {
    const created = await post(t.db, productsAction, admin, "/admin/products", {
      intent: "create",
      product: productForm({ lowStockThreshold: "3", cost: "41.25" }),
    });
    expect(created.body).toMatchObject({ ok: true });
    expect(await row(created.body.id)).toMatchObject({ lowStockThreshold: 3, costCents: 4125 });

    const editor = await get(t.db, editorLoader, admin, `/admin/products/${created.body.id}/editor`, { productId: created.body.id });
    expect(editor.body.product).toMatchObject({ lowStockThreshold: 3, costCents: 4125 });
    expect(editor.body.lowStockDefault).toBe(5);

    await post(t.db, productsAction, admin, "/admin/products", {
      intent: "update",
      id: created.body.id,
      product: productForm({ lowStockThreshold: "", cost: "" }),
    });
    expect(await row(created.body.id)).toMatchObject({ lowStockThreshold: null, costCents: null });
  });

  it("leaves both alone when a form without them is saved", async () => {
    const p = await makeProduct(t.db, { lowStockThreshold: 7, costCents: 900 });
    const res = await post(t.db, productsAction, admin, "/admin/products", {
      intent: "update",
      id: p.id,
      product: productForm({ name: p.name, sku: p.sku }),
    });
    expect(res.body).toMatchObject({ ok: true });
    expect(await row(p.id)).toMatchObject({ lowStockThreshold: 7, costCents: 900 });
  });

  it.each([
    [{ lowStockThreshold: "-2" }, "lowStockThreshold", "Low-stock threshold cannot be negative"],
    [{ lowStockThreshold: "1.5" }, "lowStockThreshold", "Low-stock threshold must be a whole number"],
    [{ cost: "-3" }, "cost", "Cost per item cannot be negative"],
    [{ cost: "1.234" }, "cost", "Cost per item can have at most 2 decimals"],
    [{ cost: "cheap" }, "cost", "Cost per item must be a number"],
  ])("refuses %o beside the field", async (bad, field, message) => {
    const res = await post(t.db, productsAction, admin, "/admin/products", { intent: "create", product: productForm(bad) });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBe(message);
  });
});

describe("the import's cost per item", () => {
  const fixture = (f: string) => path.resolve(__dirname, "../fixtures/real-world", f);

  it("maps Shopify's 'Cost per item' (both layouts) to the product's cost: the cheapest variant's", async () => {
    await importProducts(t.db, fixture("shopify-product-template-2024.csv"));
    const [shirt] = await t.db.select().from(products).where(eq(products.sku, "physical-product-the-band-t-shirt"));
    expect(shirt).toMatchObject({ priceCents: 1999, costCents: 1100 });

    await importProducts(t.db, fixture("shopify-product-template-legacy.csv"));
    const bySku = async (sku: string) => (await t.db.select().from(products).where(eq(products.sku, sku)))[0]!;
    expect(await bySku("example-pants")).toMatchObject({ priceCents: 9500, costCents: 5000 });
    expect(await bySku("example-hat")).toMatchObject({ priceCents: 1799, costCents: 850 });
    expect(await bySku("example-shirt")).toMatchObject({ costCents: null });
  });

  it("reads the shop's own CSV's cost_per_item column, and leaves costs alone when a file has none", async () => {
    const csv = (text: string) => (async function* () { yield Buffer.from(text); })();
    await importProducts(t.db, csv("title,sku,price,cost_per_item\nCost Duvet,COST-DUVET,90.00,37.50\n"));
    const [duvet] = await t.db.select().from(products).where(eq(products.sku, "COST-DUVET"));
    expect(duvet!.costCents).toBe(3750);
    await importProducts(t.db, csv("title,sku,price\nCost Duvet,COST-DUVET,95.00\n"));
    expect((await row(duvet!.id)).costCents).toBe(3750);
    const bad = await importProducts(t.db, csv("title,sku,price,cost_per_item\nCost Pillow,COST-PILLOW,20.00,-4\n"));
    expect(bad.errors).toEqual(["Row 2: Cost per item cannot be negative ('-4')"]);
  });
});
