import { ShoppingCart } from "~/components/ui/lean/icons/shopping-cart";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/lean/button";
import { canAddToCart, type ProductCardData } from "~/lib/product";
import { clsx } from "~/components/ui/lean/clsx";

type CartProduct = Pick<
  ProductCardData,
  "id" | "name" | "priceCents" | "imageUrl" | "unlimitedStock" | "stockQuantity"
>;

/**
 * The code that changes the cart loads on the first Add to Cart (every page carries only what
 * reads the cart, for the header's count): fetched as the pointer or focus reaches a button, so
 * it is usually there by the click.
 */
const loadCart = () => import("~/lib/cart");

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
      onPointerEnter={() => void loadCart()}
      onPointerDown={() => void loadCart()}
      onFocus={() => void loadCart()}
      onClick={() => {
        // The add, the visit counter's beacon and the toast are lib/cart's addToCartFromButton.
        loadCart().then(
          ({ addToCartFromButton }) => addToCartFromButton(product),
          () => toast.error("Could not add to the cart", { description: "Check your connection and try again." }),
        );
      }}
    >
      <ShoppingCart aria-hidden />
      Add to Cart
    </Button>
  );
}
