import type { ProductCardData } from "./product";
import { toast } from "./toast";

export type CartProduct = Pick<ProductCardData, "id" | "name" | "priceCents" | "imageUrl" | "unlimitedStock" | "stockQuantity">;

/**
 * The code that changes the cart loads on the first Add to Cart (every page carries only what
 * reads the cart, for the header's count): fetched as the pointer or focus reaches a button, so
 * it is usually there by the click.
 */
const loadCart = () => import("./cart");

export const prefetchCart = () => void loadCart();

/** Add to Cart's click: the add, the visit counter's beacon and the toast are lib/cart's addToCartFromButton. */
export function addToCartClick(product: CartProduct) {
  loadCart().then(
    ({ addToCartFromButton }) => addToCartFromButton(product),
    () => toast.error("Could not add to the cart", { description: "Check your connection and try again." }),
  );
}
