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
  // Component classes (styles/components.css): a listing repeats them 24 times (docs/decisions/0026).
  // Every card is laid out at once: a placeholder height for cards below the fold moved
  // 'Load More' when a shopper jumped to it (docs/decisions/0024).
  return (
    <article className="product-card group">
      <Link to={href} tabIndex={-1} aria-hidden className="product-card-media">
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
          className="product-card-image"
        />
        <span className="product-card-badges">
          {isOnSale(product) ? <Badge variant="destructive">Sale</Badge> : null}
          {!inStock ? <Badge variant="secondary">Out of stock</Badge> : null}
        </span>
      </Link>
      <div className="product-card-body">
        <h3 className="product-card-name">
          <Link to={href}>
            {product.name}
          </Link>
        </h3>
        <Rating value={product.rating} reviewCount={product.reviewCount} />
        <Price cents={product.priceCents} originalCents={product.originalPriceCents} lowestCents={product.lowestPriceCents} />
        <ColorDots colors={product.colors} swatches={product.swatches} />
        <AddToCartButton product={product} className="mt-auto" />
      </div>
    </article>
  );
}
