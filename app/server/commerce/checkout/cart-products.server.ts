import { sql } from "drizzle-orm";
import { builtOnce, type Db, products } from "../../platform/index.server";
import { isUuid } from "~/lib/uuid";


/**
 * The live details a cart line is checked against (the cart's refresh, the checkout), for the ids
 * that can be product ids; anything else in a browser's cart is simply not found.
 */
export async function loadCartProducts(db: Db, ids: string[]) {
  const valid = [...new Set(ids.filter(isUuid))];
  if (!valid.length) return [];
  return cartProductsStatement(db).execute({ ids: valid });
}

// One array parameter, so every cart, whatever its size, is the same statement.
const cartProductsStatement = builtOnce("cart-products", (db) =>
  db
    .select({
      id: products.id,
      name: products.name,
      priceCents: products.priceCents,
      imageUrl: products.imageUrl,
      active: products.active,
      unlimitedStock: products.unlimitedStock,
      stockQuantity: products.stockQuantity,
      category: products.category,
      weightGrams: products.weightGrams,
    })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder("ids")}::uuid[])`),
);
