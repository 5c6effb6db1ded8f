import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BulkEditInput, ProductInput } from "~/lib/product-input";
import { action } from "~/routes/admin/products/index";
import { loader as editorLoader } from "~/routes/admin/products/editor";
import { products } from "~/server/platform/db/schema";
import { importProducts } from "~/server/catalog/import/run-import.server";
import { IMPORT_HEADER, sampleRow, writeSampleCsv } from "~/server/catalog/import/sample-csv.server";
import { parseWeightGrams, parseWeightUnit } from "~/server/catalog/import/weight.server";
import { makeCategory, makeProduct, makeProducts } from "../factories/products";
import { makeAdmin, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, productForm } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;
const shared = (f: string) => path.resolve(__dirname, "../fixtures/real-world", f);
const ours = (f: string) => path.resolve(__dirname, "../fixtures", f);

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  for (const name of ["Bedding", "Decor"]) await makeCategory(t.db, { name });
});

const send = (body: unknown) => post(t.db, action, admin, "/admin/products", body);
const row = async (id: string) => (await t.db.select().from(products).where(eq(products.id, id)))[0]!;
const bySku = async (sku: string) => (await t.db.select().from(products).where(eq(products.sku, sku)))[0];
const weightOf = async (sku: string) => (await bySku(sku))?.weightGrams;

describe("the product form's 'Weight (g)'", () => {
  it("saves whole grams, and an empty field as no weight (null)", async () => {
    const heavy = await send({ intent: "create", product: productForm({ weightGrams: "1250" }) });
    expect(heavy.body).toMatchObject({ ok: true });
    expect((await row(heavy.body.id)).weightGrams).toBe(1250);
    const none = await send({ intent: "create", product: productForm({ weightGrams: "" }) });
    expect((await row(none.body.id)).weightGrams).toBeNull();
    // A form from before the field existed creates a product without a weight.
    const old = await send({ intent: "create", product: productForm() });
    expect((await row(old.body.id)).weightGrams).toBeNull();
    const edge = await send({ intent: "create", product: productForm({ weightGrams: "1000000" }) });
    expect((await row(edge.body.id)).weightGrams).toBe(1_000_000);
  });

  it.each([
    ["-1", "Weight cannot be negative"],
    ["1.5", "Weight must be a whole number of grams"],
    ["heavy", "Weight must be a number of grams"],
    ["1e3", "Weight must be a number of grams"],
    ["1000001", "Weight must be at most 1,000,000 g"],
  ])("refuses %s beside the field: %s", async (typed, message) => {
    expect(ProductInput.safeParse(productForm({ weightGrams: typed })).error?.issues[0]?.message).toBe(message);
    const res = await send({ intent: "create", product: productForm({ weightGrams: typed }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, title: "Failed to create product", message });
    expect(res.body.errors.weightGrams).toBe(message);
  });

  it("loads the weight into the editor, changes and clears it; a save without the field keeps it", async () => {
    const p = await makeProduct(t.db, { weightGrams: 800 });
    const loaded = await get(t.db, editorLoader, admin, `/admin/products/${p.id}/editor`, { productId: p.id });
    expect(loaded.body.product).toMatchObject({ id: p.id, weightGrams: 800 });

    await send({ intent: "update", id: p.id, product: productForm({ weightGrams: "950" }) });
    expect((await row(p.id)).weightGrams).toBe(950);
    await send({ intent: "update", id: p.id, product: productForm({ name: "Renamed" }) });
    expect(await row(p.id)).toMatchObject({ name: "Renamed", weightGrams: 950 });
    await send({ intent: "update", id: p.id, product: productForm({ weightGrams: "" }) });
    expect((await row(p.id)).weightGrams).toBeNull();
  });
});

describe("Bulk Edit's 'Weight (g)'", () => {
  const bulk = (b: Record<string, unknown>) => send({ intent: "bulk-update", bulk: b });

  it("sets the weight of every selected product, and only theirs; empty removes it", async () => {
    const ps = await makeProducts(t.db, 3, (i) => ({ weightGrams: i === 0 ? null : 100 * i, priceCents: 1000 + i }));
    const other = await makeProduct(t.db, { weightGrams: 42 });
    const ids = ps.map((p) => p.id);
    const res = await bulk({ ids, weightGrams: "500" });
    expect(res.body).toMatchObject({ ok: true, message: "3 products updated successfully" });
    const rows = await t.db.select().from(products).where(inArray(products.id, ids));
    expect(rows.map((r) => r.weightGrams)).toEqual([500, 500, 500]);
    // Nothing else moved.
    expect(rows.map((r) => r.priceCents).sort()).toEqual([1000, 1001, 1002]);
    expect((await row(other.id)).weightGrams).toBe(42);

    await bulk({ ids: [ids[0]!], weightGrams: "" });
    expect((await row(ids[0]!)).weightGrams).toBeNull();
    expect((await row(ids[1]!)).weightGrams).toBe(500);
  });

  it.each([
    ["-2", "Weight cannot be negative"],
    ["2.5", "Weight must be a whole number of grams"],
    ["2000000", "Weight must be at most 1,000,000 g"],
  ])("refuses %s with a clear message and changes nothing", async (typed, message) => {
    const p = await makeProduct(t.db, { weightGrams: 300, featured: false });
    expect(BulkEditInput.safeParse({ ids: [p.id], weightGrams: typed }).error?.issues[0]?.message).toBe(message);
    const res = await bulk({ ids: [p.id], featured: true, weightGrams: typed });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await row(p.id)).toMatchObject({ weightGrams: 300, featured: false });
  });
});

describe("weights in an import", () => {
  beforeEach(async () => {
    await t.db.execute(sql`truncate products, variation_types cascade`);
  });

  it("converts units exactly, rounding half up to the gram", () => {
    expect(parseWeightGrams("0.5", "lb")).toBe(227); // 226.796185 g
    expect(parseWeightGrams("1", "lb")).toBe(454); // 453.59237 g
    expect(parseWeightGrams("3", "oz")).toBe(85); // 85.04856 g
    expect(parseWeightGrams("1.0005", "kg")).toBe(1001); // 1000.5 g: half up, with no floating-point slip
    expect(parseWeightGrams("226.5", "g")).toBe(227);
    expect(parseWeightGrams("226.49", "g")).toBe(226);
    expect(parseWeightGrams("1,234", "g")).toBe(1234);
    expect(parseWeightGrams("", "kg")).toBeNull();
    expect(parseWeightGrams("1000", "kg")).toBe(1_000_000);
    expect(parseWeightGrams("1000.001", "kg")).toEqual({ error: "Weight '1000.001' is above 1,000,000 g (1,000 kg)" });
    expect(parseWeightGrams("9".repeat(50), "g")).toEqual({ error: `Weight '${"9".repeat(40)}…' is above 1,000,000 g (1,000 kg)` });
    expect(parseWeightGrams("0.30000000000000004", "kg")).toBe(300);
    expect(parseWeightGrams("00012", "g")).toBe(12);
    expect(["kg", "KGS", "Lbs", "lb", "oz", "ounces", "g", "grams"].map(parseWeightUnit)).toEqual(["kg", "kg", "lb", "lb", "oz", "oz", "g", "g"]);
    expect(parseWeightUnit("stone")).toBeNull();
  });

  it("the shop's own CSV: a weight_grams column, bad cells refused like a bad price or stock", async () => {
    const csv = [
      "title,sku,price,weight_grams",
      "Linen Sheet,W-SHEET,49,650",
      "Rounded,W-ROUND,10,12.5",
      "No Weight,W-NONE,10,",
      "Negative,W-NEG,10,-5",
      "Wordy,W-WORD,10,heavy",
      "Enormous,W-HUGE,10,2000000",
      "",
    ].join("\n");
    const s = await importProducts(t.db, [csv]);
    expect(s.errors).toEqual([
      "Row 5: Weight cannot be negative ('-5')",
      "Row 6: Invalid weight 'heavy': expected a number of g",
      "Row 7: Weight '2000000' is above 1,000,000 g (1,000 kg)",
    ]);
    expect(s).toMatchObject({ created: 3, skipped: 3 });
    expect(await weightOf("W-SHEET")).toBe(650);
    expect(await weightOf("W-ROUND")).toBe(13);
    expect(await weightOf("W-NONE")).toBeNull();
    expect(await bySku("W-NEG")).toBeUndefined();

    // Re-imported without the column, the weights stay; with it, they change (empty clears).
    await importProducts(t.db, ["title,sku,price\nLinen Sheet,W-SHEET,55\n"]);
    expect(await bySku("W-SHEET")).toMatchObject({ priceCents: 5500, weightGrams: 650 });
    await importProducts(t.db, ["title,sku,weight_grams\nLinen Sheet,W-SHEET,700\nRounded,W-ROUND,\n"]);
    expect(await weightOf("W-SHEET")).toBe(700);
    expect(await weightOf("W-ROUND")).toBeNull();
  });

  it("the shop's sample CSV carries weight_grams, and imports it", async () => {
    expect(IMPORT_HEADER.split(",")).toContain("weight_grams");
    const file = path.join(os.tmpdir(), `weight-sample-${process.pid}-${Date.now()}.csv`);
    await writeSampleCsv(file, 3, { skuPrefix: "WS" });
    const s = await importProducts(t.db, file);
    await fs.rm(file, { force: true });
    expect(s).toMatchObject({ created: 3, errorCount: 0 });
    for (let i = 1; i <= 3; i++) {
      const r = sampleRow(i, "WS");
      expect(await weightOf(r.sku)).toBe(r.weightGrams);
    }
  });

  it("WooCommerce 'Weight (lbs)': its own sample, in grams rounded half up", async () => {
    const s = await importProducts(t.db, shared("woocommerce-sample-products.csv"));
    expect(s).toMatchObject({ format: "woocommerce", errorCount: 0 });
    const expected: Record<string, number> = {
      "woo-vneck-tee": 227, // 0.5 lb
      "woo-hoodie": 680, // 1.5 lb = 680.388555 g
      "woo-hoodie-with-logo": 907, // 2 lb
      "woo-tshirt": 363, // 0.8 lb = 362.873896 g
      "woo-beanie": 91, // 0.2 lb = 90.718474 g
      "woo-belt": 544,
      "woo-cap": 272,
      "woo-hoodie-with-pocket": 1361,
      "woo-long-sleeve-tee": 454,
    };
    for (const [sku, grams] of Object.entries(expected)) expect([sku, await weightOf(sku)]).toEqual([sku, grams]);
  });

  it("WooCommerce 'Weight (kg)': converted, a variable product as heavy as its heaviest variation, bad cells reported", async () => {
    const s = await importProducts(t.db, ours("import-woocommerce-weights-kg.csv"));
    expect(s.errors).toEqual([
      "Row 6: Weight cannot be negative ('-1')",
      "Row 7: Invalid weight 'heavy': expected a number of kg",
      "Row 8: Invalid weight '1,5': use a dot for decimals (for example 0.5)",
      "Row 9: Weight '5000' is above 1,000,000 g (1,000 kg)",
      "Row 13: Invalid weight 'lots': expected a number of kg",
    ]);
    expect(s).toMatchObject({ created: 5, merged: 2 });
    expect(await weightOf("KG-DUVET")).toBe(1500);
    expect(await weightOf("KG-HALF-GRAM")).toBe(1); // 0.5 g rounds up
    expect(await weightOf("KG-UNDER-HALF")).toBe(0);
    expect(await weightOf("KG-NONE")).toBeNull();
    expect(await weightOf("KG-THROW")).toBe(450);
    expect(await bySku("KG-NEGATIVE")).toBeUndefined();

    // Again: the same weights, not the heaviest of old and new piled up.
    await importProducts(t.db, ours("import-woocommerce-weights-kg.csv"));
    expect(await weightOf("KG-THROW")).toBe(450);
    expect(await weightOf("KG-DUVET")).toBe(1500);
  });

  it("Shopify 'Variant Grams' (older layout): grams whatever the display unit says; the heaviest variant", async () => {
    const s = await importProducts(t.db, shared("shopify-product-template-legacy.csv"));
    expect(s).toMatchObject({ format: "shopify-legacy", errorCount: 0 });
    expect(await weightOf("example-shirt")).toBe(145);
    // Variant Grams 226.796185, 283.4952313 and 396.8933238 with the unit 'oz': still grams.
    expect(await weightOf("example-pants")).toBe(397);
    expect(await weightOf("example-hat")).toBe(72);
  });

  it("Shopify 'Weight value (grams)' (current layout)", async () => {
    const s = await importProducts(t.db, shared("shopify-product-template-2024.csv"));
    expect(s).toMatchObject({ format: "shopify-2024", errorCount: 0 });
    expect(await weightOf("physical-product-the-band-t-shirt")).toBe(200);
  });

  it("Shopify 'Variant Weight' with 'Variant Weight Unit' g, kg, lb, oz; bad units and values reported per variant", async () => {
    const s = await importProducts(t.db, ours("import-shopify-weights.csv"));
    expect(s.errors).toEqual([
      "Row 7: Unknown weight unit 'stone': expected g, kg, lb or oz",
      "Row 9: The weight '4' has no unit: expected g, kg, lb or oz in Variant Weight Unit",
      "Row 10: Variant weight cannot be negative ('-3')",
      "Row 11: Invalid variant weight 'light': expected a number of kg",
    ]);
    expect(await weightOf("grams-towel")).toBe(350);
    expect(await weightOf("kilo-blanket")).toBe(1250);
    expect(await weightOf("pound-pillow")).toBe(1134); // 2.5 lb, the heavier size
    expect(await weightOf("ounce-napkin")).toBe(85);
    // The refused variant is left out; the other one gives the product its weight and price.
    expect(await bySku("stone-bench")).toMatchObject({ weightGrams: 20000, priceCents: 40000 });
    // As with a bad price, the product stays, without the refused variant's figures.
    expect(await weightOf("no-unit-mat")).toBeNull();
    expect(await weightOf("no-weight-vase")).toBeNull();
  });
});
