import { ShoppingCart } from "~/components/ui/lean/icons/shopping-cart";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/lean/button";
import { canAddToCart, type ProductCardData } from "~/lib/product";
import { reportAddToCart } from "~/lib/visit-beacon";
import { clsx } from "clsx";

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
        const line = {
          id: product.id,
          name: product.name,
          priceCents: product.priceCents,
          imageUrl: product.imageUrl,
          unlimitedStock: product.unlimitedStock,
          stockQuantity: product.stockQuantity,
        };
        reportAddToCart(product.id);
        // The toast follows the add, so what it confirms is already in the cart.
        loadCart().then(
          ({ cartStore }) => {
            cartStore.add(line);
            toast.success("Added to Cart", { description: `${product.name} has been added to your cart.` });
          },
          () => toast.error("Could not add to the cart", { description: "Check your connection and try again." }),
        );
      }}
    >
      <ShoppingCart aria-hidden />
      Add to Cart
    </Button>
  );
}
