import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action, loader as redirectLoader } from "~/routes/admin/products/categories";
import { loader as pageLoader } from "~/routes/admin/products/index";
import { categories, products } from "~/server/platform/db/schema";
import { makeCategory, makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

const send = (body: unknown) => post(t.db, action, admin, "/admin/products/categories", body);
const category = async (id: string) => (await t.db.select().from(categories).where(eq(categories.id, id)))[0];

describe("admin categories", () => {
  it("is for admins only", async () => {
    const customer = await makeCustomer(t.db);
    const res = await post(t.db, action, customer, "/admin/products/categories", { intent: "create", name: "Sneaky" });
    expect(res.status).toBe(403);
    expect((await post(t.db, action, null, "/admin/products/categories", { intent: "create", name: "Sneaky" })).status).toBe(302);
    expect(await t.db.select().from(categories).where(eq(categories.name, "Sneaky"))).toHaveLength(0);
    expect((await get(t.db, redirectLoader, customer, "/admin/products/categories")).status).toBe(403);
  });

  it("adds a category and lists every category, newest first, with the count", async () => {
    const res = await send({ intent: "create", name: "  Lighting ", description: "Lamps" });
    expect(res.body).toMatchObject({ ok: true, message: "Category added successfully" });
    const page = await get(t.db, pageLoader, admin, "/admin/products?tab=categories");
    expect(page.body.categories[0]).toMatchObject({ name: "Lighting", description: "Lamps", active: true });
  });

  it("requires a name", async () => {
    const res = await send({ intent: "create", name: "   ", description: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: "Failed to add category", message: "Category name is required" });
  });

  it("refuses a duplicate name, whatever its case", async () => {
    await makeCategory(t.db, { name: "Rugs" });
    const res = await send({ intent: "create", name: "RUGS" });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A category named "RUGS" already exists');
  });

  it("renames a category and every product that carries it", async () => {
    const c = await makeCategory(t.db, { name: "Throws" });
    const p = await makeProduct(t.db, { category: "Throws" });
    const untouched = await makeProduct(t.db, { category: "Bedding" });
    const res = await send({ intent: "rename", id: c.id, name: "Blankets" });
    expect(res.body).toMatchObject({ ok: true, message: "Category updated successfully" });
    expect((await category(c.id))!.name).toBe("Blankets");
    const [moved] = await t.db.select().from(products).where(eq(products.id, p.id));
    expect(moved!.category).toBe("Blankets");
    const [other] = await t.db.select().from(products).where(eq(products.id, untouched.id));
    expect(other!.category).toBe("Bedding");
  });

  it("refuses a blank or duplicate rename and keeps the old name on the category and its products", async () => {
    const c = await makeCategory(t.db, { name: "Candles" });
    await makeCategory(t.db, { name: "Vases" });
    const p = await makeProduct(t.db, { category: "Candles" });
    const blank = await send({ intent: "rename", id: c.id, name: "  " });
    expect(blank.body.message).toBe("Category name is required");
    const dup = await send({ intent: "rename", id: c.id, name: "vases" });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ title: "Failed to update category", message: 'A category named "vases" already exists' });
    expect((await category(c.id))!.name).toBe("Candles");
    expect((await t.db.select().from(products).where(eq(products.id, p.id)))[0]!.category).toBe("Candles");
  });

  it("activates and deactivates", async () => {
    const c = await makeCategory(t.db, { name: "Mirrors" });
    await send({ intent: "set-active", id: c.id, active: false });
    expect((await category(c.id))!.active).toBe(false);
    const res = await send({ intent: "set-active", id: c.id, active: true });
    expect(res.body.message).toBe("Category updated successfully");
    expect((await category(c.id))!.active).toBe(true);
  });

  it("deletes an unused category", async () => {
    const c = await makeCategory(t.db, { name: "Seasonal" });
    const res = await send({ intent: "delete", id: c.id });
    expect(res.body).toMatchObject({ ok: true, message: "Category deleted successfully" });
    expect(await category(c.id)).toBeUndefined();
  });

  it("asks where to move the products of a category still in use, and never leaves them pointing at nothing", async () => {
    const c = await makeCategory(t.db, { name: "Outdoor" });
    const target = await makeCategory(t.db, { name: "Garden" });
    const ps = [await makeProduct(t.db, { category: "Outdoor" }), await makeProduct(t.db, { category: "Outdoor" })];
    const refused = await send({ intent: "delete", id: c.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      ok: false,
      title: "Failed to delete category",
      code: "category_in_use",
      productCount: 2,
      message: '2 products still use "Outdoor". Choose a category to move them to, then delete.',
    });
    expect(await category(c.id)).toBeDefined();

    const self = await send({ intent: "delete", id: c.id, moveProductsTo: c.id });
    expect(self.status).toBe(400);
    expect(await category(c.id)).toBeDefined();

    const moved = await send({ intent: "delete", id: c.id, moveProductsTo: target.id });
    expect(moved.body).toMatchObject({ ok: true, message: "Category deleted successfully", moved: 2 });
    expect(await category(c.id)).toBeUndefined();
    for (const p of ps) {
      expect((await t.db.select().from(products).where(eq(products.id, p.id)))[0]!.category).toBe("Garden");
    }
  });

  it("answers 404 for a category that does not exist", async () => {
    expect((await send({ intent: "rename", id: "00000000-0000-4000-8000-000000000000", name: "X" })).status).toBe(404);
    expect((await send({ intent: "delete", id: "not-an-id" })).status).toBe(404);
  });
});
