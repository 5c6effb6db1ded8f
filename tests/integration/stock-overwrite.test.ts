import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/admin/products/index";
import { takeProductUnits } from "~/server/catalog/index.server";
import { products } from "~/server/platform/db/schema";
import { makeProducts } from "../factories/products";
import { makeAdmin, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { post } from "./admin-catalog-helpers";

/**
 * Stock set in bulk must not undo the sales made since the owner read it
 * (docs/rules/admin.md, "Bulk Edit dialog"): 10 on the list, 3 sold, 'set to 10' is not 13 sold of 10.
 */
const t = useTestDatabase();
let admin: TestUser;
beforeAll(async () => {
  admin = await makeAdmin(t.db);
});
const send = (body: unknown) => post(t.db, action, admin, "/admin/products", body);
const stockOf = async (ids: string[]) => {
  const rows = await t.db.select({ id: products.id, stock: products.stockQuantity }).from(products).where(inArray(products.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)!.stock);
};

describe("bulk edit of stock", () => {
  it("refuses to set stock over sales made since the list was loaded, and changes nothing; with the stock seen now it applies", async () => {
    const ps = await makeProducts(t.db, 2, () => ({ stockQuantity: 10, unlimitedStock: false, featured: false }));
    const ids = ps.map((p) => p.id);
    const seen = Object.fromEntries(ids.map((id) => [id, 10]));
    // Three sold of the first product after the owner loaded the list.
    await t.db.transaction((tx) => takeProductUnits(tx, ids[0]!, 3));

    const refused = await send({ intent: "bulk-update", bulk: { ids, stockQuantity: "12", featured: true, stockSeen: seen } });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("3 sold since you loaded this list. Nothing was changed: reload the list to see the stock now, then set it again.");
    expect(await stockOf(ids)).toEqual([7, 10]);
    expect((await t.db.select({ featured: products.featured }).from(products).where(eq(products.id, ids[0]!)))[0]!.featured).toBe(false);

    const applied = await send({ intent: "bulk-update", bulk: { ids, stockQuantity: "12", stockSeen: { [ids[0]!]: 7, [ids[1]!]: 10 } } });
    expect(applied.status).toBe(200);
    expect(await stockOf(ids)).toEqual([12, 12]);
  });

  it("fields other than stock are applied whatever sold meanwhile", async () => {
    const ps = await makeProducts(t.db, 1, () => ({ stockQuantity: 10, unlimitedStock: false, featured: false }));
    await t.db.transaction((tx) => takeProductUnits(tx, ps[0]!.id, 3));
    const res = await send({ intent: "bulk-update", bulk: { ids: [ps[0]!.id], featured: true, stockSeen: { [ps[0]!.id]: 10 } } });
    expect(res.status).toBe(200);
    expect(await stockOf([ps[0]!.id])).toEqual([7]);
  });
});
