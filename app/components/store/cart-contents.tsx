import { Link } from "react-router";
import { CartLine } from "~/components/store/cart-line";
import { useCartQuote } from "~/components/store/cart-quote";
import { CartSummary } from "~/components/store/cart-summary";
import { DiscountCodeField, useDiscountEntry } from "~/components/store/discount-code-field";
import { Button } from "~/components/ui/lean/button";
import { useCart } from "~/lib/cart";

/**
 * A cart with items: its lines, the server's quote for them, the discount code and the way to the
 * checkout. Loaded by the cart page only when the cart has something in it.
 */
export default function CartContents() {
  const cart = useCart();
  const discount = useDiscountEntry();
  const cartQuote = useCartQuote(cart.items, { code: discount.code });
  return (
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
          lastQuote={cartQuote.lastQuote}
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
  );
}
