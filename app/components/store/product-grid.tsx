import type { ComponentProps, ReactNode } from "react";
import { kept } from "~/components/kept";
import { addToCartClick, prefetchCart } from "~/lib/add-to-cart-click";
import type { ProductCardData } from "~/lib/product";
import type { ProductCard as DrawnCard } from "./product-card";

const isAddToCart = (target: EventTarget) => (target as Element).closest("[data-add-to-cart]") !== null;

/**
 * The cards the server drew are kept as drawn (../kept.tsx): a listing's first load carries no
 * card code. Their Add to Cart works through the wrapper; cards drawn later (the next page, the
 * page reached by a link) load the card code.
 */
export const ProductCard = kept<ComponentProps<typeof DrawnCard>>(
  () => import("./product-card").then((m) => m.ProductCard),
  ({ product }) => ({
    onPointerOver: (e) => void (isAddToCart(e.target) && prefetchCart()),
    onFocus: (e) => void (isAddToCart(e.target) && prefetchCart()),
    onClick: (e) => {
      if (isAddToCart(e.target)) addToCartClick(product);
    },
  }),
);

/** The text shown when the catalogue has no products (docs/rules/storefront.md, Home). */
export const EMPTY_CATALOGUE_TEXT = "No products found. Import your CSV file to get started!";

/** A responsive grid of product cards; the first `eagerCount` images load at once (above the fold). */
export function ProductGrid({
  products,
  eagerCount = 0,
  empty = EMPTY_CATALOGUE_TEXT,
}: {
  products: ProductCardData[];
  eagerCount?: number;
  empty?: ReactNode;
}) {
  if (products.length === 0) {
    return <div className="rounded-lg border border-dashed px-4 py-16 text-center text-muted-foreground">{empty}</div>;
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-6 md:grid-cols-3 lg:grid-cols-4" aria-label="Products">
      {products.map((p, i) => (
        <li key={p.id} className="flex">
          <ProductCard product={p} eager={i < eagerCount} priority={eagerCount > 0 && i === 0} />
        </li>
      ))}
    </ul>
  );
}
