import { firstImageUrl } from "~/lib/product";
import type { Db } from "../db/client.server";
import { loadCartProducts } from "./cart-products.server";

/** The shop's current word on one cart line: gone (unknown or inactive), or its live details. */
export type CartRefreshLine =
  | { id: string; available: false }
  | {
      id: string;
      available: true;
      name: string;
      priceCents: number;
      imageUrl: string;
      unlimitedStock: boolean;
      stockQuantity: number;
    };

/** Reloads the cart's products so the cart can flag what changed since it was filled. */
export async function refreshCartLines(db: Db, ids: string[]): Promise<CartRefreshLine[]> {
  const rows = await loadCartProducts(db, ids);
  const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
  return ids.map((id) => {
    const row = byId.get(id.toLowerCase());
    if (!row || !row.active) return { id, available: false };
    return {
      id,
      available: true,
      name: row.name,
      priceCents: row.priceCents,
      imageUrl: firstImageUrl(row.imageUrl),
      unlimitedStock: row.unlimitedStock,
      stockQuantity: row.stockQuantity,
    };
  });
}
