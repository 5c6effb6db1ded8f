import { ShoppingCart } from "~/components/ui/lean/icons/shopping-cart";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/lean/button";
import { cartStore } from "~/lib/cart";
import { canAddToCart, type ProductCardData } from "~/lib/product";
import { reportAddToCart } from "~/lib/visit-beacon";
import { clsx } from "clsx";

type CartProduct = Pick<
  ProductCardData,
  "id" | "name" | "priceCents" | "imageUrl" | "unlimitedStock" | "stockQuantity"
>;

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
      onClick={() => {
        cartStore.add({
          id: product.id,
          name: product.name,
          priceCents: product.priceCents,
          imageUrl: product.imageUrl,
          unlimitedStock: product.unlimitedStock,
          stockQuantity: product.stockQuantity,
        });
        reportAddToCart(product.id);
        toast.success("Added to Cart", { description: `${product.name} has been added to your cart.` });
      }}
    >
      <ShoppingCart aria-hidden />
      Add to Cart
    </Button>
  );
}
