import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { SHOP_PAGE_SIZE, type ShopSort } from "~/lib/product";
import { SHOP_SORTS } from "~/lib/shop-sorts";
import { listShopProducts } from "~/server/catalog/products/storefront.server";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { makeProducts } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const opened: Database[] = [];
afterAll(() => Promise.all(opened.map((db) => db.$client.end())));

/** The ids /shop shows, read by hand in the order each sort promises. */
async function expected(db: Database, sort: ShopSort, offset: number, limit: number, category: string | null) {
  const order: Record<ShopSort, string> = {
    featured: "featured desc nulls last, created_at desc nulls last, id desc nulls last",
    name: "name asc, id asc",
    "price-low": "price_cents asc, id asc",
    "price-high": "price_cents desc, id desc",
    rating: "rating desc nulls last, review_count desc nulls last, id desc nulls last",
  };
  const { rows } = await db.execute<{ id: string }>(
    sql`select id from products where active and (${category}::text is null or category = ${category})
        order by ${sql.raw(order[sort])} limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => r.id);
}

describe("the listing's statements", () => {
  it("plans the first page of all products once per connection, and every page still shows the products in the sort's order", async () => {
    await makeProducts(t.db, SHOP_PAGE_SIZE * 2 + 5, (i) => ({
      category: i % 3 ? "Bedding" : "Decor",
      active: i % 7 !== 0,
      featured: i % 5 === 0,
      priceCents: 1000 + ((i * 37) % 900),
      rating: i % 4 ? (i % 5) + 0.5 : 0,
      reviewCount: i % 6,
    }));
    // One connection, so what it has prepared is what every request on it reuses.
    const db = createDatabase(t.url, 1);
    opened.push(db);

    const sorts = SHOP_SORTS.map((s) => s.value);
    for (const sort of sorts) {
      for (const [category, offset] of [[null, 0], [null, 0], [null, SHOP_PAGE_SIZE], ["Decor", 0]] as const) {
        const page = await listShopProducts(db, { search: "", category, sort }, { offset, limit: SHOP_PAGE_SIZE });
        expect(page.items.map((p) => p.id), `${sort}, ${category ?? "all"}, from ${offset}`).toEqual(
          await expected(db, sort, offset, SHOP_PAGE_SIZE, category),
        );
      }
    }

    const { rows } = await db.execute<{ name: string; generic_plans: number; custom_plans: number }>(
      sql`select name, generic_plans::int, custom_plans::int from pg_prepared_statements where name like 'listing-first-%' order by name`,
    );
    // Each sort's first page: prepared on this connection, and run on its one plan every time.
    expect(rows.map((r) => r.name)).toEqual(sorts.map((s) => `listing-first-${s}-${SHOP_PAGE_SIZE + 1}`).sort());
    for (const row of rows) expect(row).toMatchObject({ generic_plans: 2, custom_plans: 0 });
  });
});
