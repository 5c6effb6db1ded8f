import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listShopProducts } from "~/server/catalog/products/storefront.server";
import { products } from "~/server/platform/db/schema";
import { makeProduct, makeProducts } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

/** What the counter table says against what counting the products says, per category. */
async function counts() {
  const stored = await t.db.execute<{ category: string; n: number }>(
    sql`select category, active_count as n from product_counts where active_count <> 0 order by category`,
  );
  const actual = await t.db.execute<{ category: string; n: number }>(
    sql`select category, count(*)::int as n from products where active group by category order by category`,
  );
  return { stored: stored.rows, actual: actual.rows };
}

async function expectExact() {
  const { stored, actual } = await counts();
  expect(stored).toEqual(actual);
}

const shopTotal = async (category: string | null) =>
  (await listShopProducts(t.db, { search: "", category, sort: "featured" }, { offset: 0, limit: 1 })).total;

describe("/shop's product counts", () => {
  it("follow inserts, updates, deletes and truncation exactly", async () => {
    await makeProducts(t.db, 7, (i) => ({ category: i < 4 ? "Bedding" : "Decor", active: i !== 3 }));
    await expectExact();
    expect(await shopTotal("Bedding")).toBe(3);
    expect(await shopTotal("Decor")).toBe(3);
    expect(await shopTotal(null)).toBe(6);

    // Deactivate one, reactivate another, move a category, change only prices.
    const decor = await t.db.select({ id: products.id }).from(products).where(eq(products.category, "Decor"));
    await t.db.update(products).set({ active: false }).where(eq(products.id, decor[0]!.id));
    await t.db.update(products).set({ active: true }).where(eq(products.active, false));
    await t.db.update(products).set({ category: "Living Room" }).where(eq(products.category, "Decor"));
    await t.db.update(products).set({ priceCents: sql`${products.priceCents} + 100` });
    await expectExact();
    expect(await shopTotal("Living Room")).toBe(3);
    expect(await shopTotal("Decor")).toBe(0);

    await t.db.delete(products).where(inArray(products.id, decor.slice(1).map((d) => d.id)));
    await expectExact();
    expect(await shopTotal(null)).toBe(5);

    await t.db.execute(sql`truncate products cascade`);
    await expectExact();
    expect(await shopTotal(null)).toBe(0);
  });

  it("ignore a rolled-back transaction and stay exact under concurrent writers", async () => {
    await makeProduct(t.db, { category: "Bedding" });
    await expect(
      t.db.transaction(async (tx) => {
        await makeProducts(tx, 5, () => ({ category: "Bedding" }));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await expectExact();

    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.db.transaction(async (tx) => {
          await makeProducts(tx, 10, (j) => ({ category: ["Bedding", "Decor", "Rugs"][(i + j) % 3]! }));
          await tx.update(products).set({ active: false }).where(eq(products.category, i % 2 ? "Rugs" : "Decor"));
        }),
      ),
    );
    await expectExact();
  });
});
