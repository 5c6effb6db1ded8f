import { randomBytes } from "node:crypto";
import type { Db } from "~/server/platform/db/client.server";
import { categories, products } from "~/server/platform/db/schema";

export type ProductRow = typeof products.$inferSelect;
export type ProductOverrides = Partial<typeof products.$inferInsert>;
export type CategoryRow = typeof categories.$inferSelect;

// A random start, then counting: the thousands of products one file makes never share a suffix
// (drawn at random each, the 5,500 of one search test collided on the unique SKU about once in 300 runs).
let lastSuffix = randomBytes(4).readUInt32BE();
function uniqueSuffix() {
  lastSuffix = (lastSuffix + 1) >>> 0;
  return lastSuffix.toString(16).padStart(8, "0");
}

/**
 * One active product with unique name and SKU, in stock (10 units), $25.00, category Bedding.
 * Override any column: `makeProduct(db, { priceCents: 1999, unlimitedStock: true })`.
 */
export async function makeProduct(db: Db, overrides: ProductOverrides = {}): Promise<ProductRow> {
  const [row] = await db.insert(products).values(productValues(overrides)).returning();
  return row!;
}

function productValues(overrides: ProductOverrides): typeof products.$inferInsert {
  const suffix = uniqueSuffix();
  return {
    name: `Test Product ${suffix}`,
    description: `A product made for a test (${suffix}).`,
    category: "Bedding",
    priceCents: 2500,
    sku: `TEST-${suffix}`,
    imageUrl: "",
    active: true,
    featured: false,
    unlimitedStock: false,
    stockQuantity: 10,
    rating: 4.5,
    reviewCount: 12,
    colors: [],
    tags: [],
    ...overrides,
  };
}

/** Several products at once; `overrides(i)` customises the i-th (0-based). */
export async function makeProducts(
  db: Db,
  count: number,
  overrides: (i: number) => ProductOverrides = () => ({}),
): Promise<ProductRow[]> {
  if (count <= 0) return [];
  // One insert: tests that need 40 rows for paging stay fast.
  return db
    .insert(products)
    .values(Array.from({ length: count }, (_, i) => productValues(overrides(i))))
    .returning();
}

/** One active category with a unique name unless given. */
export async function makeCategory(
  db: Db,
  overrides: Partial<typeof categories.$inferInsert> = {},
): Promise<CategoryRow> {
  const [row] = await db
    .insert(categories)
    .values({
      name: `Category ${uniqueSuffix()}`,
      description: "",
      active: true,
      ...overrides,
    })
    .returning();
  return row!;
}
