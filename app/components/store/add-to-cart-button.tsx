import { ShoppingCart } from "~/components/ui/lean/icons/shopping-cart";
import { addToCartClick, prefetchCart, type CartProduct } from "~/lib/add-to-cart-click";
import { Button } from "~/components/ui/lean/button";
import { canAddToCart } from "~/lib/product";
import { clsx } from "~/components/ui/lean/clsx";

/** Add to Cart: disabled without stock; adds one and confirms with a toast (docs/rules/storefront.md, Product cards). */
export function AddToCartButton({
  product,
  size = "default",
  className,
}: {
  product: CartProduct;
  size?: "default" | "lg";
  className?: string;
}) {
  const available = canAddToCart(product);
  return (
    <Button
      type="button"
      size={size}
      className={clsx("w-full", className)}
      disabled={!available}
      data-add-to-cart=""
      onPointerEnter={prefetchCart}
      onPointerDown={prefetchCart}
      onFocus={prefetchCart}
      onClick={() => addToCartClick(product)}
    >
      <ShoppingCart aria-hidden />
      Add to Cart
    </Button>
  );
}
