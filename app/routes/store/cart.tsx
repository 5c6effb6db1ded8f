import { ShoppingBag } from "~/components/ui/lean/icons/shopping-bag";
import { brandFrom } from "~/lib/seo";
import { lazy, Suspense, useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { CartNotice } from "~/components/store/cart-notice";
import { useHydrated } from "~/hooks/use-hydrated";
import { Button } from "~/components/ui/lean/button";
import { Skeleton } from "~/components/ui/lean/skeleton";
import { installCartParser, readCart, useCartItems } from "~/lib/cart-read";
import { parseStoredCart } from "~/lib/cart-parse";
import type { Route } from "./+types/cart";

/**
 * The lines, the quote and the summary: code an empty cart never needs (and a first visit's cart
 * is empty), so it loads on demand. A browser whose cart has items starts fetching it as soon as
 * this page's code runs, alongside hydration, while the page shows the loading skeleton it was
 * served with.
 */
const loadCartContents = () => import("~/components/store/cart-contents");
const CartContents = lazy(loadCartContents);
// The cart page reads the stored lines at once, with their checks (see readCart).
installCartParser(parseStoredCart);
if (typeof window !== "undefined" && readCart().length > 0) void loadCartContents();

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Shopping Cart | ${brand}` },
    {
      name: "description",
      content: `Review the items in your ${brand} cart and check out.`,
    },
    { name: "robots", content: "noindex" },
  ];
};

/**
 * As tall as the empty cart (232 px), which a first visit's cart is: the server cannot know the
 * cart, so this is what it sends, and the footer below must not move when hydration swaps it.
 */
function CartSkeleton() {
  return (
    <div className="mt-8 grid gap-2" role="status" aria-busy="true" aria-label="Loading your cart">
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

export default function CartPage() {
  const hydrated = useHydrated();
  const items = useCartItems();
  const [params, setParams] = useSearchParams();

  // Back from a cancelled payment: the cart that was cleared for it comes back.
  useEffect(() => {
    if (params.get("checkout") !== "cancelled") return;
    void import("~/lib/cart").then((m) => m.restoreStashedCart());
    setParams({}, { replace: true, preventScrollReset: true });
  }, [params, setParams]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Shopping Cart</h1>
      <CartNotice />
      {!hydrated ? (
        <CartSkeleton />
      ) : items.length === 0 ? (
        <div className="mt-12 flex flex-col items-center gap-4 text-center">
          <ShoppingBag className="size-12 text-muted-foreground" aria-hidden />
          <p className="text-xl font-medium">Your cart is empty</p>
          <p className="text-muted-foreground">Find something you love in the shop.</p>
          <Button asChild>
            <Link to="/">Continue Shopping</Link>
          </Button>
        </div>
      ) : (
        <Suspense fallback={<CartSkeleton />}>
          <CartContents />
        </Suspense>
      )}
    </div>
  );
}
