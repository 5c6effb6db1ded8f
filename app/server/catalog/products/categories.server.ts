import { and, asc, count, desc, eq, ne, sql } from "drizzle-orm";
import type { AdminCategory, CategoryOption } from "~/lib/catalog-view";
import { CategoryInput, CategoryName } from "~/lib/product-input";
import { categories, type Db, products } from "../../platform/index.server";
import { CatalogInputError, pgErrorCode, UNIQUE_VIOLATION } from "./admin-errors.server";

/** Deleting a category still on products needs a place to move them: the admin is asked. */
export class CategoryInUseError extends CatalogInputError {
  constructor(
    readonly categoryName: string,
    readonly productCount: number,
  ) {
    super(
      `${productCount} ${productCount === 1 ? "product still uses" : "products still use"} "${categoryName}". Choose a category to move ${productCount === 1 ? "it" : "them"} to, then delete.`,
      "conflict",
    );
  }
}

function toAdminCategory(row: typeof categories.$inferSelect): AdminCategory {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

function duplicate(name: string) {
  return new CatalogInputError(`A category named "${name}" already exists`, "conflict", "name");
}

/** Every category, newest first (docs/rules/catalogue-data.md). */
export async function listCategories(db: Db): Promise<AdminCategory[]> {
  const rows = await db.select().from(categories).orderBy(desc(categories.createdAt), asc(categories.name));
  return rows.map(toAdminCategory);
}

/** The active categories (id, name) by name, for the product and bulk edit dialogs (docs/rules/catalogue-data.md). */
export async function listActiveCategories(db: Db): Promise<CategoryOption[]> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(eq(categories.active, true))
    .orderBy(asc(categories.name));
}

export async function createCategory(db: Db, input: unknown): Promise<AdminCategory> {
  const { name, description } = CategoryInput.parse(input);
  try {
    const [row] = await db.insert(categories).values({ name, description }).returning();
    return toAdminCategory(row!);
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw duplicate(name);
    throw err;
  }
}

/** Renames a category and, in the same transaction, every product that carries the old name. */
export async function renameCategory(db: Db, id: string, rawName: unknown): Promise<{ category: AdminCategory; productsRenamed: number }> {
  const name = CategoryName.parse(rawName);
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(categories).where(eq(categories.id, id)).for("update");
      if (!current) throw new CatalogInputError("Category not found", "not_found");
      const [row] = await tx.update(categories).set({ name }).where(eq(categories.id, id)).returning();
      let productsRenamed = 0;
      if (current.name !== name) {
        const renamed = await tx
          .update(products)
          .set({ category: name, updatedAt: sql`now()` })
          .where(eq(products.category, current.name))
          .returning({ id: products.id });
        productsRenamed = renamed.length;
      }
      return { category: toAdminCategory(row!), productsRenamed };
    });
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw duplicate(name);
    throw err;
  }
}

export async function setCategoryActive(db: Db, id: string, active: boolean): Promise<AdminCategory> {
  const [row] = await db.update(categories).set({ active }).where(eq(categories.id, id)).returning();
  if (!row) throw new CatalogInputError("Category not found", "not_found");
  return toAdminCategory(row);
}

/**
 * Hard delete (docs/rules/admin.md, Categories tab). A category that products still use is refused unless `moveProductsTo`
 * names another category: then its products move there first, in the same transaction, so no
 * product is left pointing at a category that no longer exists.
 */
export async function deleteCategory(
  db: Db,
  id: string,
  opts: { moveProductsTo?: string } = {},
): Promise<{ moved: number }> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(categories).where(eq(categories.id, id)).for("update");
    if (!current) throw new CatalogInputError("Category not found", "not_found");
    const [{ used } = { used: 0 }] = await tx
      .select({ used: count() })
      .from(products)
      .where(eq(products.category, current.name));
    let moved = 0;
    if (used > 0) {
      if (!opts.moveProductsTo) throw new CategoryInUseError(current.name, used);
      const [target] = await tx
        .select()
        .from(categories)
        .where(and(eq(categories.id, opts.moveProductsTo), ne(categories.id, id)))
        .for("share");
      if (!target) throw new CatalogInputError("Choose another existing category to move the products to", "bad_input", "moveProductsTo");
      const rows = await tx
        .update(products)
        .set({ category: target.name, updatedAt: sql`now()` })
        .where(eq(products.category, current.name))
        .returning({ id: products.id });
      moved = rows.length;
    }
    await tx.delete(categories).where(eq(categories.id, id));
    return { moved };
  });
}

/**
 * Whether `name` may be put on a product: an active category, or the product's current one (an
 * imported or since-deactivated category stays valid on the products that already carry it).
 * Locks the category row against a concurrent delete until the caller's transaction ends.
 */
export async function assertCategoryUsable(tx: Db, name: string, current?: string): Promise<void> {
  if (current !== undefined && name === current) return;
  const [row] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.name, name), eq(categories.active, true)))
    .for("share");
  if (!row) throw new CatalogInputError(`Choose a category from the list ("${name}" is not an active category)`, "bad_input", "category");
}
