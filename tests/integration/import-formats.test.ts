import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { categories, productVariations, products, variationTypes, variationValues } from "~/server/platform/db/schema";
import { importProducts } from "~/server/catalog/import/run-import.server";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
// Real exports, kept byte for byte (CRLF included): tests/fixtures/real-world/README.md.
const shared = (f: string) => path.resolve(__dirname, "../fixtures/real-world", f);
const ours = (f: string) => path.resolve(__dirname, "../fixtures", f);

async function product(sku: string) {
  const [row] = await t.db.select().from(products).where(eq(products.sku, sku));
  return row!;
}

async function variationsOf(productId: string) {
  return t.db
    .select({ type: variationTypes.name, value: variationValues.value, adj: productVariations.priceAdjustmentCents, stock: productVariations.stockQuantity })
    .from(productVariations)
    .innerJoin(variationValues, eq(variationValues.id, productVariations.variationValueId))
    .innerJoin(variationTypes, eq(variationTypes.id, variationValues.variationTypeId))
    .where(eq(productVariations.productId, productId))
    .orderBy(variationTypes.name, variationValues.value);
}

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, variation_types cascade`);
});

describe("the shop's generic CSV columns (docs/rules/catalogue-data.md)", () => {
  it("imports every good row with the import defaults and reports the row without a title", async () => {
    const s = await importProducts(t.db, ours("import-generic.csv"));
    expect(s).toMatchObject({ format: "generic", rows: 5, created: 4, updated: 0, skipped: 1, errors: ["Row 4: Missing product title"] });

    const duvet = await product("LL-DUVET-K");
    expect(duvet).toMatchObject({
      name: "Linen Duvet Cover, King",
      description: "Stonewashed linen.",
      priceCents: 12900,
      originalPriceCents: 15900,
      stockQuantity: 12,
      category: "Bedding",
      tags: ["linen", "duvet"],
      colors: ["Sand", "Sage"],
      imageUrl: "https://img.example.test/duvet-1.jpg",
      featured: true,
      active: true,
    });
    expect(await product("LL-THROW")).toMatchObject({ name: "Wool Throw", description: "Product: Wool Throw", priceCents: 8950, originalPriceCents: null });
    expect((await product("LL-TABLE")).active).toBe(false);

    const [plain] = await t.db.select().from(products).where(eq(products.name, "Plain Pillowcase"));
    expect(plain).toMatchObject({
      priceCents: 0,
      originalPriceCents: null,
      sku: "",
      stockQuantity: 0,
      unlimitedStock: false,
      category: "Imported",
      tags: [],
      colors: [],
      featured: false,
      active: true,
      description: "Product: Plain Pillowcase",
      imageUrl: "",
    });
    const names = (await t.db.select({ name: categories.name }).from(categories)).map((c) => c.name).sort();
    expect(names).toEqual(["Bedding", "Decor", "Furniture", "Imported"]);
  });

  it("dry-runs without writing, then a re-import updates the same products by SKU", async () => {
    const dry = await importProducts(t.db, ours("import-generic.csv"), { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, created: 4, updated: 0, skipped: 1, newCategories: ["Bedding", "Decor", "Furniture", "Imported"] });
    expect(await t.db.select().from(products)).toHaveLength(0);

    await importProducts(t.db, ours("import-generic.csv"));
    await t.db.update(products).set({ priceCents: 1, featured: true }).where(eq(products.sku, "LL-THROW"));
    const again = await importProducts(t.db, ours("import-generic.csv"), { dryRun: true });
    // The row without a SKU cannot be matched, so it would be created again.
    expect(again).toMatchObject({ created: 1, updated: 3 });
    const real = await importProducts(t.db, ours("import-generic.csv"));
    expect(real).toMatchObject({ created: 1, updated: 3 });
    expect(await t.db.select().from(products).where(sql`${products.sku} <> ''`)).toHaveLength(3);
    // The file has the column, so its value wins again.
    expect(await product("LL-THROW")).toMatchObject({ priceCents: 8950, featured: false });
  });

  it("keeps a category's own spelling and an image already in the shop's storage on re-import", async () => {
    await t.db.insert(categories).values({ name: "BEDDING" });
    await makeProduct(t.db, { sku: "LL-DUVET-K", imageUrl: "/media/products/duvet.webp", category: "Bedding" });
    const s = await importProducts(t.db, ours("import-generic.csv"));
    expect(s.updated).toBe(1);
    expect(await product("LL-DUVET-K")).toMatchObject({ category: "BEDDING", imageUrl: "/media/products/duvet.webp" });
  });

  it("updates only the columns a file has", async () => {
    await makeProduct(t.db, { sku: "KEEP-1", name: "Old", priceCents: 999, category: "Furniture", featured: true, description: "Hand-written" });
    await importProducts(t.db, ["sku,title\nKEEP-1,New name\n"]);
    expect(await product("KEEP-1")).toMatchObject({ name: "New name", priceCents: 999, category: "Furniture", featured: true, description: "Hand-written" });
  });
});

describe("a WooCommerce export", () => {
  it("imports WooCommerce's own sample sensibly: one product per parent, variations merged, unsold types skipped", async () => {
    const s = await importProducts(t.db, shared("woocommerce-sample-products.csv"));
    expect(s).toMatchObject({ format: "woocommerce", formatLabel: "WooCommerce product export", created: 14, merged: 7, errorCount: 0, skipped: 4 });
    expect(s.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Row \d+: Skipped downloadable product 'Album'/),
        expect.stringMatching(/^Row \d+: Skipped grouped product 'Logo Collection'/),
        expect.stringMatching(/^Row \d+: Skipped external product 'WordPress Pennant'/),
      ]),
    );
    const vneck = await product("woo-vneck-tee");
    expect(vneck).toMatchObject({ name: "V-Neck T-Shirt", category: "Tshirts", priceCents: 1500, colors: ["Blue", "Green", "Red"], featured: true });
    expect(vneck.imageUrl).toBe("https://woocommercecore.mystagingwebsite.com/wp-content/uploads/2017/12/vneck-tee-2.jpg");
    const hoodie = await product("woo-hoodie");
    expect(hoodie).toMatchObject({ priceCents: 4200, originalPriceCents: 4500, colors: ["Blue", "Green", "Red"] });
    expect(await variationsOf(hoodie.id)).toEqual(
      expect.arrayContaining([
        { type: "Color", value: "Red", adj: 0, stock: 0 },
        { type: "Logo", value: "Yes", adj: 300, stock: 0 },
      ]),
    );
    expect(await product("woo-beanie")).toMatchObject({ priceCents: 1800, originalPriceCents: 2000 });
    expect((await product("woo-hoodie-with-pocket")).active).toBe(false); // hidden from the catalogue
    expect(await t.db.select().from(products).where(eq(products.sku, "woo-album"))).toHaveLength(0);
  });

  it("merges variations listed before their parent or by id, and reports bad rows", async () => {
    const s = await importProducts(t.db, ours("import-woocommerce.csv"));
    expect(s).toMatchObject({ created: 2, merged: 2 });
    expect(s.errors).toEqual([
      "Row 5: Stock cannot be negative ('-2')",
      "Row 6: Invalid regular price '12,50': use a dot for decimals (for example 12.50)",
      "Row 9: The parent product 'LL-NO-SUCH-PARENT' of this variation was not found",
    ]);
    expect(s.notes).toEqual([expect.stringMatching(/^Row 7: Skipped downloadable product 'Care Guide \(PDF\)'/)]);
    const sheet = await product("LL-SHEET");
    expect(sheet).toMatchObject({
      category: "Sheets",
      priceCents: 3900,
      originalPriceCents: 4500,
      stockQuantity: 10,
      unlimitedStock: false,
      colors: ["White", "Blush"],
      featured: true,
      description: "Crisp cotton percale.",
      imageUrl: "https://img.example.test/sheet.jpg",
    });
    expect(await variationsOf(sheet.id)).toEqual([
      { type: "Colour", value: "Blush", adj: 0, stock: 6 },
      { type: "Colour", value: "White", adj: 1000, stock: 4 },
      { type: "Size", value: "King", adj: 0, stock: 6 },
      { type: "Size", value: "Queen", adj: 1000, stock: 4 },
    ]);
    expect(await product("LL-VASE")).toMatchObject({ active: false, stockQuantity: 0, unlimitedStock: false, colors: ["Blue"], category: "Vases" });

    // Importing it again changes nothing but the counts.
    const again = await importProducts(t.db, ours("import-woocommerce.csv"));
    expect(again).toMatchObject({ created: 0, updated: 2, merged: 2 });
    expect(await product("LL-SHEET")).toMatchObject({ stockQuantity: 10, priceCents: 3900 });
  });
});

describe("a Shopify export", () => {
  it("imports the older layout: one product per handle, continuation rows as variants, draft and archived inactive", async () => {
    const s = await importProducts(t.db, shared("shopify-product-template-legacy.csv"));
    expect(s).toMatchObject({ format: "shopify-legacy", created: 3, errorCount: 0 });
    const shirt = await product("example-shirt");
    expect(shirt).toMatchObject({
      name: "Example T-Shirt",
      category: "Shirts",
      priceCents: 2500,
      active: true,
      colors: ["Green", "Blue", "Gray", "Purple"],
      tags: ["Made to Order", "Shirt Tag"],
      imageUrl: "https://burst.shopifycdn.com/photos/tshirts.jpg?width=1500",
      // No inventory tracker: Shopify never runs out of it.
      unlimitedStock: true,
    });
    expect(shirt.description).toMatch(/^This t-shirt is as simple as it gets\. Easy to wear/);
    expect(shirt.description).not.toContain("<");
    expect((await variationsOf(shirt.id)).map((v) => `${v.type}:${v.value}`).sort()).toEqual(
      ["Color:Blue", "Color:Gray", "Color:Green", "Color:Purple", "Size:L", "Size:M", "Size:S"],
    );
    expect(await product("example-pants")).toMatchObject({ active: false, stockQuantity: 45, priceCents: 9500, originalPriceCents: null });
    expect(s.notes).toContain("Row 14: The compare-at price of 'Example Jeans' is below its price and was ignored");
    expect(await product("example-hat")).toMatchObject({ active: false, priceCents: 1799, originalPriceCents: 2299, stockQuantity: 50 });
  });

  it("imports the current layout and skips the digital product", async () => {
    const s = await importProducts(t.db, shared("shopify-product-template-2024.csv"));
    expect(s).toMatchObject({ format: "shopify-2024", created: 1, skipped: 1, errorCount: 0 });
    expect(s.notes).toEqual([expect.stringMatching(/^Row 14: Skipped digital product 'Digital Product The History of Rock Music'/)]);
    const tee = await product("physical-product-the-band-t-shirt");
    expect(tee).toMatchObject({
      name: "Physical Product “The Band” T-Shirt",
      priceCents: 1999,
      originalPriceCents: 2499,
      stockQuantity: 513,
      colors: ["green", "gray", "red"],
      category: "Graphic shirt",
      imageUrl: "https://burst.shopifycdn.com/photos/forest-hiker.jpg?width=1000",
    });
    expect(await variationsOf(tee.id)).toHaveLength(7); // 4 sizes + 3 colours
  });

  it("reports bad variant rows and keeps the rest of the product", async () => {
    const s = await importProducts(t.db, ours("import-shopify.csv"));
    expect(s.errors).toEqual([
      "Row 4: Inventory quantity cannot be negative ('-4')",
      "Row 5: Invalid price 'abc': expected an amount such as 12.50",
    ]);
    expect(s.notes).toEqual([expect.stringMatching(/^Row 6: Skipped gift card 'Linen Gift Card'/)]);
    const towel = await product("waffle-towel");
    expect(towel).toMatchObject({ priceCents: 1800, originalPriceCents: 2400, stockQuantity: 15, category: "Towels", colors: ["White"] });
    expect(towel.description).toBe("Quick-drying waffle weave.");
    expect(await variationsOf(towel.id)).toEqual([
      { type: "Colour", value: "White", adj: 0, stock: 15 },
      { type: "Size", value: "Bath", adj: 1400, stock: 5 },
      { type: "Size", value: "Hand", adj: 0, stock: 10 },
    ]);
    expect(await product("draft-robe")).toMatchObject({ active: false, priceCents: 9500, stockQuantity: 2 });
    expect(await variationsOf((await product("draft-robe")).id)).toEqual([]);
  });
});
