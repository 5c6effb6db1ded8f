import { ShoppingBag } from "~/components/ui/lean/icons/shopping-bag";
import { brandFrom } from "~/lib/seo";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { CartLine } from "~/components/store/cart-line";
import { CartNotice } from "~/components/store/cart-notice";
import { useCartQuote } from "~/components/store/cart-quote";
import { DiscountCodeField, useDiscountEntry } from "~/components/store/discount-code-field";
import { useHydrated } from "~/hooks/use-hydrated";
import { CartSummary } from "~/components/store/cart-summary";
import { Button } from "~/components/ui/lean/button";
import { Skeleton } from "~/components/ui/lean/skeleton";
import { restoreStashedCart, useCart } from "~/lib/cart";
import type { Route } from "./+types/cart";

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Shopping Cart | ${brand}` },
    { name: "description", content: `Review the items in your ${brand} cart and check out.` },
    { name: "robots", content: "noindex" },
  ];
};

export default function CartPage() {
  const hydrated = useHydrated();
  const cart = useCart();
  const discount = useDiscountEntry();
  const cartQuote = useCartQuote(cart.items, { code: discount.code });
  const [params, setParams] = useSearchParams();

  // Back from a cancelled payment: the cart that was cleared for it comes back.
  useEffect(() => {
    if (params.get("checkout") !== "cancelled") return;
    restoreStashedCart();
    setParams({}, { replace: true, preventScrollReset: true });
  }, [params, setParams]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Shopping Cart</h1>
      <CartNotice />
      {!hydrated ? (
        <div className="mt-8 grid gap-4" aria-busy="true" aria-label="Loading your cart">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : cart.items.length === 0 ? (
        <div className="mt-12 flex flex-col items-center gap-4 text-center">
          <ShoppingBag className="size-12 text-muted-foreground" aria-hidden />
          <p className="text-xl font-medium">Your cart is empty</p>
          <p className="text-muted-foreground">Find something you love in the shop.</p>
          <Button asChild>
            <Link to="/">Continue Shopping</Link>
          </Button>
        </div>
      ) : (
        <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-3">
          <section className="min-w-0 lg:col-span-2" aria-labelledby="cart-items-title">
            <div className="flex items-center justify-between gap-4 border-b pb-3">
              <h2 id="cart-items-title" className="font-medium">
                {cart.itemCount} {cart.itemCount === 1 ? "item" : "items"}
              </h2>
              <Button type="button" variant="outline" size="sm" onClick={() => cart.clear()}>
                Clear Cart
              </Button>
            </div>
            <ul className="divide-y" aria-label="Cart items">
              {cart.items.map((item) => (
                <CartLine key={item.id} item={item} flag={cartQuote.flags[item.id]} />
              ))}
            </ul>
          </section>
          <div className="min-w-0 lg:sticky lg:top-24 lg:self-start">
            <CartSummary
              quote={cartQuote.quote}
              shipping={cartQuote.shipping}
              taxPending={cartQuote.taxPending}
              failed={cartQuote.failed}
              beforeTotal={<DiscountCodeField entry={discount} verdict={cartQuote.discount} />}
            >
              {cartQuote.blocked ? (
                <p className="text-sm text-destructive" role="alert">
                  Remove or change the flagged items to continue.
                </p>
              ) : null}
              {cartQuote.blocked ? (
                <Button size="lg" disabled>
                  Proceed to Checkout
                </Button>
              ) : (
                <Button asChild size="lg">
                  <Link to="/checkout">Proceed to Checkout</Link>
                </Button>
              )}
              <Button asChild variant="outline">
                <Link to="/">Continue Shopping</Link>
              </Button>
            </CartSummary>
          </div>
        </div>
      )}
    </div>
  );
}
