import { Link } from "react-router";
import { Badge } from "~/components/ui/lean/badge";
import { ownImageSrcSet } from "~/lib/images";
import { canAddToCart, isOnSale, type ProductCardData } from "~/lib/product";
import { AddToCartButton } from "./add-to-cart-button";
import { ColorDots } from "./color-dots";
import { Price } from "./price";
import { Rating } from "./rating";

/** Card sizes for the grid: 2 columns on phones, 3 from 768 px, 4 from 1024 px, at most 1280 px wide. */
export const CARD_IMAGE_SIZES = "(min-width: 1280px) 296px, (min-width: 1024px) 23vw, (min-width: 768px) 31vw, 46vw";

/**
 * A product card (docs/rules/storefront.md): image, name, price (struck original only when higher), rating, up to
 * three colour dots, Add to Cart; the image and name link to /product/{id}.
 */
export function ProductCard({
  product,
  eager = false,
  priority = false,
}: {
  product: ProductCardData;
  /** Above the fold: load at once instead of lazily. */
  eager?: boolean;
  /** Likely the largest image in view (the first card of /shop): fetch it first. */
  priority?: boolean;
}) {
  const href = `/product/${product.id}`;
  const inStock = canAddToCart(product);
  const srcSet = ownImageSrcSet(product.imageUrl, 960);
  // A card below the fold is neither styled, laid out nor painted until it nears the viewport
  // (about a phone-width card's height held meanwhile): a listing's first layout then costs a
  // screenful of cards, not all of them (docs/decisions/0024).
  const offscreen = eager || priority ? "" : " [content-visibility:auto] [contain-intrinsic-size:auto_24rem]";
  return (
    <article className={`group flex w-full flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs${offscreen}`}>
      <Link to={href} tabIndex={-1} aria-hidden className="relative block aspect-square overflow-hidden bg-muted">
        <img
          src={product.imageUrl}
          alt=""
          width={600}
          height={600}
          srcSet={srcSet}
          sizes={srcSet ? CARD_IMAGE_SIZES : undefined}
          loading={eager || priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
        <span className="absolute top-2 left-2 flex flex-col gap-1">
          {isOnSale(product) ? <Badge variant="destructive">Sale</Badge> : null}
          {!inStock ? <Badge variant="secondary">Out of stock</Badge> : null}
        </span>
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <h3 className="line-clamp-2 text-sm font-medium sm:text-base">
          <Link to={href} className="hover:text-primary hover:underline focus-visible:underline">
            {product.name}
          </Link>
        </h3>
        <Rating value={product.rating} reviewCount={product.reviewCount} />
        <Price cents={product.priceCents} originalCents={product.originalPriceCents} />
        <ColorDots colors={product.colors} swatches={product.swatches} />
        <AddToCartButton product={product} className="mt-auto" />
      </div>
    </article>
  );
}
