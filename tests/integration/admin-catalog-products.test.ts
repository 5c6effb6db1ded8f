import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_FIELDS_SELECTED, NO_PRODUCTS_SELECTED } from "~/lib/product-input";
import { action, loader } from "~/routes/admin/products/index";
import { loader as editorLoader } from "~/routes/admin/products/editor";
import { ADMIN_SEARCH_COUNT_CAP, CONFLICT_MESSAGE } from "~/server/catalog/products/admin-products.server";
import { products } from "~/server/platform/db/schema";
import { makeCategory, makeProduct, makeProducts } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, productForm } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  for (const name of ["Bedding", "Decor", "Furniture"]) await makeCategory(t.db, { name });
  await makeCategory(t.db, { name: "Retired", active: false });
});

const send = (body: unknown) => post(t.db, action, admin, "/admin/products", body);
const row = async (id: string) => (await t.db.select().from(products).where(eq(products.id, id)))[0]!;
const count = async () => (await t.db.select({ id: products.id }).from(products)).length;

describe("admin products: who may use them", () => {
  it("sends anonymous people to sign in and refuses customers, on the page and on every write", async () => {
    const customer = await makeCustomer(t.db);
    const anon = await get(t.db, loader, null, "/admin/products");
    expect(anon.status).toBe(302);
    expect(anon.location).toContain("/auth?redirectTo=");
    expect((await get(t.db, loader, customer, "/admin/products")).status).toBe(403);
    const p = await makeProduct(t.db);
    for (const as of [null, customer]) {
      const res = await post(t.db, action, as, "/admin/products", { intent: "delete", id: p.id });
      expect([302, 403]).toContain(res.status);
    }
    expect((await get(t.db, editorLoader, customer, `/admin/products/${p.id}/editor`, { productId: p.id })).status).toBe(403);
    expect(await row(p.id)).toBeDefined();
  });
});

describe("admin products: the table", () => {
  it("pages, sorts and searches on the server", async () => {
    const tag = `zebra${Date.now()}`;
    const made = await makeProducts(t.db, 30, (i) => ({
      name: `${tag} item ${String(i).padStart(2, "0")}`,
      priceCents: 1000 + i,
      category: i % 2 ? "Decor" : "Bedding",
      createdAt: new Date(Date.now() - i * 60_000),
    }));
    const page1 = await get(t.db, loader, admin, `/admin/products?q=${tag}`);
    expect(page1.body.products.rows).toHaveLength(25);
    expect(page1.body.products.total).toBe(30);
    // Newest first by default.
    expect(page1.body.products.rows[0].id).toBe(made[0]!.id);
    const page2 = await get(t.db, loader, admin, `/admin/products?q=${tag}&page=2`);
    expect(page2.body.products.rows).toHaveLength(5);

    const byPrice = await get(t.db, loader, admin, `/admin/products?q=${tag}&sort=price&dir=desc`);
    expect(byPrice.body.products.rows[0].priceCents).toBe(1029);
    const byName = await get(t.db, loader, admin, `/admin/products?q=${tag}&sort=name`);
    expect(byName.body.products.rows[0].name).toBe(`${tag} item 00`);

    // Case-insensitive, over description and category too; an exact SKU matches.
    const upper = await get(t.db, loader, admin, `/admin/products?q=${tag.toUpperCase()}%20ITEM%2007`);
    expect(upper.body.products.rows.map((r: { id: string }) => r.id)).toEqual([made[7]!.id]);
    const bySku = await get(t.db, loader, admin, `/admin/products?q=${encodeURIComponent(made[3]!.sku)}`);
    expect(bySku.body.products.rows.map((r: { id: string }) => r.id)).toEqual([made[3]!.id]);
  });

  it("stops counting a broad search at the cap and says there are more", async () => {
    const tag = `capped${Date.now()}`;
    await makeProducts(t.db, ADMIN_SEARCH_COUNT_CAP + 1, (i) => ({ name: `${tag} ${i}` }));
    const res = await get(t.db, loader, admin, `/admin/products?q=${tag}`);
    expect(res.body.products).toMatchObject({ total: ADMIN_SEARCH_COUNT_CAP, totalCapped: true });
    expect(res.body.products.rows).toHaveLength(25);
  });

  it("treats % and _ in a search as plain characters", async () => {
    await makeProduct(t.db, { name: "100% Linen Throw" });
    await makeProduct(t.db, { name: "1000 Thread Sheet" });
    const res = await get(t.db, loader, admin, "/admin/products?q=100%25");
    expect(res.body.products.rows.map((r: { name: string }) => r.name)).toEqual(["100% Linen Throw"]);
  });

  it("ignores nonsense in the query string instead of failing", async () => {
    const res = await get(t.db, loader, admin, "/admin/products?sort=drop%20table&dir=sideways&page=-4");
    expect(res.status).toBe(200);
    expect(res.body.query).toMatchObject({ sort: "created", dir: "desc", page: 1 });
  });

  it("offers only active categories to the dialogs", async () => {
    const res = await get(t.db, loader, admin, "/admin/products");
    const names = res.body.activeCategories.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Bedding", "Decor", "Furniture"]));
    expect(names).not.toContain("Retired");
  });
});

describe("admin products: create and edit", () => {
  it("creates a product from the dialog, in cents, with an empty original price as null", async () => {
    const res = await send({ intent: "create", product: productForm({ sku: "NEW-1", price: "129.5" }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, message: "Product created successfully" });
    const saved = await row(res.body.id);
    expect(saved).toMatchObject({ name: "Linen Duvet Cover", priceCents: 12950, originalPriceCents: null, stockQuantity: 12, sku: "NEW-1" });
  });

  it("saves unlimited stock with a quantity of 0", async () => {
    const res = await send({ intent: "create", product: productForm({ unlimitedStock: true, stockQuantity: "40" }) });
    expect(await row(res.body.id)).toMatchObject({ unlimitedStock: true, stockQuantity: 0 });
  });

  it.each([
    [{ price: "-1" }, "price", "Price cannot be negative"],
    [{ price: "abc" }, "price", "Price must be a number"],
    [{ price: "12.345" }, "price", "Price can have at most 2 decimals"],
    [{ price: "" }, "price", "Price is required"],
    [{ originalPrice: "-5" }, "originalPrice", "Original price cannot be negative"],
    [{ originalPrice: "9.999" }, "originalPrice", "Original price can have at most 2 decimals"],
    [{ stockQuantity: "-3" }, "stockQuantity", "Stock quantity cannot be negative"],
    [{ stockQuantity: "2.5" }, "stockQuantity", "Stock quantity must be a whole number"],
    [{ stockQuantity: "lots" }, "stockQuantity", "Stock quantity must be a number"],
    [{ name: "   " }, "name", "Product name is required"],
    [{ category: "Retired" }, "category", 'Choose a category from the list ("Retired" is not an active category)'],
    [{ category: "Nowhere" }, "category", 'Choose a category from the list ("Nowhere" is not an active category)'],
    [{ imageUrl: "javascript:alert(1)" }, "imageUrl", "Image URL must start with http:// or https://"],
  ])("refuses %o with a message beside the field and saves nothing", async (bad, field, message) => {
    const before = await count();
    const res = await send({ intent: "create", product: productForm(bad) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, title: "Failed to create product", message });
    expect(res.body.errors[field]).toBe(message);
    expect(await count()).toBe(before);
  });

  it("refuses a second product with the same SKU", async () => {
    await makeProduct(t.db, { sku: "DUP-SKU" });
    const res = await send({ intent: "create", product: productForm({ sku: "DUP-SKU" }) });
    expect(res.status).toBe(409);
    expect(res.body.errors.sku).toBe('Another product already has the SKU "DUP-SKU"');
  });

  it("loads a product into the editor and saves every field", async () => {
    const p = await makeProduct(t.db, { priceCents: 5000, originalPriceCents: 6000 });
    const loaded = await get(t.db, editorLoader, admin, `/admin/products/${p.id}/editor`, { productId: p.id });
    expect(loaded.body.product).toMatchObject({ id: p.id, priceCents: 5000, originalPriceCents: 6000 });
    const res = await send({
      intent: "update",
      id: p.id,
      product: productForm({ name: "Renamed", originalPrice: "", price: "45.00", category: "Decor", featured: true, version: loaded.body.product.version }),
    });
    expect(res.body).toMatchObject({ ok: true, message: "Product updated successfully" });
    expect(await row(p.id)).toMatchObject({ name: "Renamed", priceCents: 4500, originalPriceCents: null, category: "Decor", featured: true });
  });

  it("keeps an imported product's own category valid on save", async () => {
    const p = await makeProduct(t.db, { category: "Clothing > Shirts" });
    const res = await send({ intent: "update", id: p.id, product: productForm({ category: "Clothing > Shirts" }) });
    expect(res.body.ok).toBe(true);
  });

  it("reports a conflict when another admin saved since the editor loaded, and keeps their save", async () => {
    const p = await makeProduct(t.db, { name: "Original" });
    const { body } = await get(t.db, editorLoader, admin, `/admin/products/${p.id}/editor`, { productId: p.id });
    const version = body.product.version;
    const first = await send({ intent: "update", id: p.id, product: productForm({ name: "First admin", version }) });
    expect(first.body.ok).toBe(true);
    const second = await send({ intent: "update", id: p.id, product: productForm({ name: "Second admin", version }) });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ ok: false, code: "stale", message: CONFLICT_MESSAGE });
    expect((await row(p.id)).name).toBe("First admin");
  });

  it("never mixes two simultaneous saves: the row is wholly one of them", async () => {
    const p = await makeProduct(t.db);
    const a = productForm({ name: "Save A", price: "10.00", stockQuantity: "1", category: "Decor" });
    const b = productForm({ name: "Save B", price: "20.00", stockQuantity: "2", category: "Furniture" });
    const results = await Promise.all([
      send({ intent: "update", id: p.id, product: a }),
      send({ intent: "update", id: p.id, product: b }),
    ]);
    expect(results.every((r) => r.body.ok)).toBe(true);
    const saved = await row(p.id);
    const wholeA = saved.name === "Save A" && saved.priceCents === 1000 && saved.stockQuantity === 1 && saved.category === "Decor";
    const wholeB = saved.name === "Save B" && saved.priceCents === 2000 && saved.stockQuantity === 2 && saved.category === "Furniture";
    expect(wholeA || wholeB).toBe(true);
  });

  it("answers 404 for a product that is gone, and for an id that is not one", async () => {
    const p = await makeProduct(t.db);
    await t.db.delete(products).where(eq(products.id, p.id));
    const gone = await send({ intent: "update", id: p.id, product: productForm() });
    expect(gone.status).toBe(404);
    expect((await send({ intent: "delete", id: "../../etc" })).status).toBe(404);
    const editor = await get(t.db, editorLoader, admin, `/admin/products/${p.id}/editor`, { productId: p.id });
    expect(editor.body).toEqual({ notFound: true });
    // 36 characters that look like an id to a loose pattern, but are none.
    const dashes = "-".repeat(36);
    expect((await get(t.db, editorLoader, admin, `/admin/products/${dashes}/editor`, { productId: dashes })).body).toEqual({ notFound: true });
  });
});

describe("admin products: row actions", () => {
  it("activates and deactivates with the specified messages", async () => {
    const p = await makeProduct(t.db, { active: true });
    const off = await send({ intent: "set-active", id: p.id, active: false });
    expect(off.body.message).toBe("Product deactivated successfully");
    expect((await row(p.id)).active).toBe(false);
    const on = await send({ intent: "set-active", id: p.id, active: true });
    expect(on.body.message).toBe("Product activated successfully");
    expect((await row(p.id)).active).toBe(true);
  });

  it("deletes a product", async () => {
    const p = await makeProduct(t.db);
    const res = await send({ intent: "delete", id: p.id });
    expect(res.body.message).toBe("Product deleted successfully");
    expect(await t.db.select().from(products).where(eq(products.id, p.id))).toHaveLength(0);
  });

  it("answers an unknown intent with 400", async () => {
    expect((await send({ intent: "explode" })).status).toBe(400);
  });
});

describe("admin products: bulk edit", () => {
  const bulk = (b: Record<string, unknown>) => send({ intent: "bulk-update", bulk: b });
  const rows = async (ids: string[]) => {
    const found = await t.db.select().from(products).where(inArray(products.id, ids));
    return ids.map((id) => found.find((r) => r.id === id)!);
  };

  it("applies only the fields sent, to every selected product", async () => {
    const ps = await makeProducts(t.db, 3, (i) => ({ priceCents: 1000 * (i + 1), featured: false, category: "Bedding", stockQuantity: 5 }));
    const other = await makeProduct(t.db, { priceCents: 777 });
    const ids = ps.map((p) => p.id);
    const res = await bulk({ ids, featured: true, category: "Decor" });
    expect(res.body).toMatchObject({ ok: true, message: "3 products updated successfully" });
    for (const r of await rows(ids)) {
      expect(r).toMatchObject({ featured: true, category: "Decor", stockQuantity: 5 });
    }
    expect((await rows(ids)).map((r) => r.priceCents)).toEqual([1000, 2000, 3000]);
    expect((await row(other.id)).priceCents).toBe(777);
  });

  it("adjusts prices by a percentage or an amount, each from its own price", async () => {
    const ps = await makeProducts(t.db, 2, (i) => ({ priceCents: i === 0 ? 1000 : 1999 }));
    const ids = ps.map((p) => p.id);
    await bulk({ ids, priceAdjustment: { type: "percentage", value: "10" } });
    expect((await rows(ids)).map((r) => r.priceCents)).toEqual([1100, 2199]);
    await bulk({ ids, priceAdjustment: { type: "amount", value: "-1.50" } });
    expect((await rows(ids)).map((r) => r.priceCents)).toEqual([950, 2049]);
  });

  it("refuses an adjustment that would push any price below zero, and changes nothing", async () => {
    const ps = await makeProducts(t.db, 2, (i) => ({ priceCents: i === 0 ? 500 : 5000, featured: false }));
    const ids = ps.map((p) => p.id);
    const res = await bulk({ ids, featured: true, priceAdjustment: { type: "amount", value: "-10" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("This adjustment would make the price of 1 product negative. Nothing was changed.");
    const pct = await bulk({ ids, priceAdjustment: { type: "percentage", value: "-150" } });
    expect(pct.body.message).toBe("This adjustment would make the price of 2 products negative. Nothing was changed.");
    expect((await rows(ids)).map((r) => [r.priceCents, r.featured])).toEqual([
      [500, false],
      [5000, false],
    ]);
  });

  it("sets an exact price, an original price (empty removes it) and stock", async () => {
    const ps = await makeProducts(t.db, 2, () => ({ priceCents: 100, originalPriceCents: 200, unlimitedStock: false }));
    const ids = ps.map((p) => p.id);
    await bulk({ ids, exactPrice: "15.25", originalPrice: "", stockQuantity: "8" });
    for (const r of await rows(ids)) expect(r).toMatchObject({ priceCents: 1525, originalPriceCents: null, stockQuantity: 8 });
  });

  it("saves unlimited stock with a quantity of 0, and keeps it 0 when only the quantity is sent", async () => {
    const [limited, unlimited] = await makeProducts(t.db, 2, (i) => ({ unlimitedStock: i === 1, stockQuantity: i === 1 ? 0 : 7 }));
    await bulk({ ids: [limited!.id], unlimitedStock: true });
    expect(await row(limited!.id)).toMatchObject({ unlimitedStock: true, stockQuantity: 0 });
    await bulk({ ids: [unlimited!.id], stockQuantity: "9" });
    expect(await row(unlimited!.id)).toMatchObject({ unlimitedStock: true, stockQuantity: 0 });
    await bulk({ ids: [unlimited!.id], unlimitedStock: false, stockQuantity: "9" });
    expect(await row(unlimited!.id)).toMatchObject({ unlimitedStock: false, stockQuantity: 9 });
  });

  it("gives the specified messages when no field or no product is selected", async () => {
    const p = await makeProduct(t.db);
    const noFields = await bulk({ ids: [p.id] });
    expect(noFields.status).toBe(400);
    expect(noFields.body.message).toBe(NO_FIELDS_SELECTED);
    const noProducts = await bulk({ ids: [], featured: true });
    expect(noProducts.body.message).toBe(NO_PRODUCTS_SELECTED);
  });

  it.each([
    [{ exactPrice: "-1" }, "Price cannot be negative"],
    [{ exactPrice: "1.001" }, "Price can have at most 2 decimals"],
    [{ stockQuantity: "-2" }, "Stock quantity cannot be negative"],
    [{ priceAdjustment: { type: "percentage", value: "ten" } }, "Percentage must be a number"],
    [{ priceAdjustment: { type: "amount", value: "0.333" } }, "Price adjustment can have at most 2 decimals"],
    [{ category: "Retired" }, 'Choose a category from the list ("Retired" is not an active category)'],
    [{ priceAdjustment: { type: "amount", value: "1" }, exactPrice: "5" }, "Choose either Price Adjustment or Set Exact Price, not both"],
  ])("refuses %o with a clear message and changes nothing", async (bad, message) => {
    const p = await makeProduct(t.db, { priceCents: 1234, stockQuantity: 3, category: "Bedding" });
    const res = await bulk({ ids: [p.id], featured: true, ...bad });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await row(p.id)).toMatchObject({ priceCents: 1234, stockQuantity: 3, category: "Bedding", featured: false });
  });
});
