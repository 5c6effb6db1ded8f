import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { CHECKOUT_MESSAGES, CHECKOUT_POST_FIELDS, postedLine, postedRateFigures, type CheckoutErrorBody, type RateFigures } from "~/lib/checkout";
import { DISCOUNT_MESSAGES, type DiscountReview } from "~/lib/pricing-view";

/**
 * The checkout page's parts for a shopper whose browser runs no script (docs/rules/cart-and-checkout.md,
 * Checkout without JavaScript): the page is then a plain form its action answers. They are
 * rendered by the server and replaced by the scripted ones once the page has hydrated.
 */

/** Sends the form to be priced again (the address, shipping method and code as they stand) without placing the order. */
function ReviewButton({ children }: { children: string }) {
  return (
    <Button type="submit" variant="outline" name={CHECKOUT_POST_FIELDS.intent} value="review">
      {children}
    </Button>
  );
}

/**
 * The cart's lines (product id and quantity only) and the page's checkout key, posted with the
 * form, and the shipping and tax shown with each shipping method: without script the summary
 * shows the rate priced last and the shopper may pick another (its price beside it) without
 * pricing the form again, so the server compares the figures of the method picked.
 */
export function PostedCartLines({
  lines,
  figures,
  checkoutKey,
}: {
  lines: { id: string; quantity: number }[];
  figures: RateFigures[];
  checkoutKey: string | null;
}) {
  return (
    <>
      {lines.map((l) => (
        <input key={l.id} type="hidden" name={CHECKOUT_POST_FIELDS.line} value={postedLine(l)} />
      ))}
      {figures.map((f) => (
        <input key={f.rateId} type="hidden" name={CHECKOUT_POST_FIELDS.quotedRate} value={postedRateFigures(f)} />
      ))}
      {checkoutKey ? <input type="hidden" name={CHECKOUT_POST_FIELDS.key} value={checkoutKey} /> : null}
    </>
  );
}

/** Why the last submission placed no order, in the words the scripted page shows as a toast. */
export function CheckoutRefusalNotice({ body }: { body: CheckoutErrorBody }) {
  return (
    <div role="alert" className="rounded-md border border-destructive/50 bg-destructive/5 p-4 text-sm" data-testid="checkout-refusal">
      <p className="font-semibold text-destructive">{body.title ?? CHECKOUT_MESSAGES.checkoutFailed.title}</p>
      <p className="mt-1">{body.error}</p>
    </div>
  );
}

/** Under the shipping methods: prices them again for the address as typed. */
export function UpdateShippingButton() {
  return (
    <div className="mt-3">
      <ReviewButton>Update shipping and totals</ReviewButton>
    </div>
  );
}

/** 'Discount code' with 'Apply' as a plain form field: the code is checked when the form is priced again, and at checkout. */
export function PostedDiscountField({ code, verdict }: { code: string; verdict: DiscountReview | null }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor="checkout-discount-code">Discount code</Label>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <Input id="checkout-discount-code" name={CHECKOUT_POST_FIELDS.code} defaultValue={code} autoComplete="off" maxLength={500} />
        </div>
        <ReviewButton>Apply</ReviewButton>
      </div>
      {verdict ? (
        <p role={verdict.applied ? "status" : "alert"} className={verdict.applied ? "text-sm text-success" : "text-sm text-destructive"}>
          {verdict.applied ? DISCOUNT_MESSAGES.applied : verdict.message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Shown instead of the form when no script runs and the server holds no cart to check out. Hidden
 * unless the browser runs no script (the `scripting: none` media feature): a browser that does
 * shows the loading placeholder until the page hydrates, as before.
 */
export function CheckoutNeedsScript({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="mt-8 hidden max-w-2xl gap-3 rounded-md border p-6 noscript:grid" data-testid="checkout-needs-script">
      {signedIn ? (
        <p>{CHECKOUT_MESSAGES.emptyCart.description}</p>
      ) : (
        <>
          <p>
            Your cart is kept in this browser, and the checkout needs JavaScript to read it. Turn JavaScript on to check out, or sign in to
            check out the cart saved on your account.
          </p>
          <p>
            <Link to="/auth?redirectTo=%2Fcheckout" className="underline underline-offset-4">
              Sign in
            </Link>
          </p>
        </>
      )}
      <p>
        <Link to="/shop" className="underline underline-offset-4">
          Continue Shopping
        </Link>
      </p>
    </div>
  );
}
