import { Loader2, Lock } from "lucide-react";
import { brandFrom } from "~/lib/seo";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "~/lib/toast";
import { useCartQuote, type QuoteContext } from "~/components/store/cart-quote";
import { DiscountCodeField, useDiscountEntry } from "~/components/store/discount-code-field";
import { ShippingOptions } from "~/components/store/shipping-options";
import { useHydrated } from "~/hooks/use-hydrated";
import { CartSummary } from "~/components/store/cart-summary";
import { CheckoutFormFields } from "~/components/store/checkout-form-fields";
import { EmailAboutOrder } from "~/components/store/email-about-order";
import { SavedAddressPicker } from "~/components/store/saved-address-picker";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { EMAIL_ABOUT_ORDER_FIELD } from "~/lib/abandoned-checkout";
import { cartStore, checkoutId, stashCartForCheckout, useCart } from "~/lib/cart";
import {
  CHECKOUT_MESSAGES,
  checkCheckoutForm,
  fingerprint,
  type CheckoutErrorBody,
  type CheckoutForm,
  type CheckoutFormField,
} from "~/lib/checkout";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { listSavedAddresses } from "~/server/people/index.server";
import { getDb } from "~/server/platform/index.server";
import type { Route } from "./+types/checkout";

/** A signed-in shopper's saved addresses, the default first (docs/rules/after-sale.md, Saved addresses); none for a guest. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getCurrentUser(request);
  return { email: user?.email ?? "", name: user?.name ?? "", addresses: user ? await listSavedAddresses(getDb(), user.id) : [] };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Checkout | ${brand}` },
    { name: "description", content: `Enter your shipping details and pay securely for your ${brand} order.` },
    { name: "robots", content: "noindex" },
  ];
};

export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
  const addresses = loaderData?.addresses ?? [];
  const saved = addresses.find((a) => a.isDefault) ?? addresses[0];
  const hydrated = useHydrated();
  const cart = useCart();
  const navigate = useNavigate();
  const discount = useDiscountEntry();
  const [address, setAddress] = useState<QuoteContext>(() => ({
    country: saved?.country ?? "US",
    email: loaderData?.email ?? "",
    ...(saved ? { state: saved.state, zipCode: saved.zipCode } : {}),
  }));
  const [rateId, setRateId] = useState<string | null>(null);
  const cartQuote = useCartQuote(cart.items, { ...address, code: discount.code, rateId: rateId ?? undefined });
  const shipping = cartQuote.shipping;
  const chosenRate = shipping?.state === "known" ? (shipping.options.some((o) => o.id === rateId) ? rateId : shipping.selectedId) : null;

  // The quote follows the address as it is typed (the hook waits for a pause in typing).
  function readAddress(form: HTMLFormElement) {
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
    const next = { country: value("country"), state: value("state"), zipCode: value("zipCode"), email: value("email") };
    setAddress((prev) => (JSON.stringify({ ...prev, ...next }) === JSON.stringify(prev) ? prev : { ...prev, ...next }));
  }
  const [errors, setErrors] = useState<Partial<Record<CheckoutFormField, string>>>({});
  const [processing, setProcessing] = useState(false);
  const busy = useRef(false);
  const leaving = useRef(false);

  const defaults = useMemo<Partial<CheckoutForm>>(() => {
    const email = loaderData?.email ?? "";
    if (saved) {
      const { firstName, lastName, phone, address, city, state, zipCode, country } = saved;
      return { firstName, lastName, phone, address, city, state, zipCode, country, email };
    }
    const [firstName = "", ...rest] = (loaderData?.name ?? "").trim().split(/\s+/);
    return { firstName, lastName: rest.join(" "), email, country: "US" };
  }, [loaderData?.name, loaderData?.email, saved]);

  // The checkout id is made when the page opens, not on submit: two tabs submitting at the same
  // moment would each find none in localStorage (it syncs between tabs asynchronously) and make two.
  useEffect(() => void checkoutId(), []);

  // An empty cart goes back to /cart; not while submitting, as another tab may empty it then.
  useEffect(() => {
    if (hydrated && cart.items.length === 0 && !leaving.current && !busy.current) navigate("/cart", { replace: true });
  }, [hydrated, cart.items.length, navigate]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    if (cart.items.length === 0) {
      toast.error(CHECKOUT_MESSAGES.emptyCart.title, { description: CHECKOUT_MESSAGES.emptyCart.description });
      return;
    }
    const form = event.currentTarget;
    const check = checkCheckoutForm(Object.fromEntries(new FormData(form)));
    if (!check.ok) {
      setErrors(check.fieldErrors);
      toast.error(check.title, { description: check.description });
      form.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
      return;
    }
    setErrors({});
    busy.current = true;
    setProcessing(true);
    const cartItems = cart.items.map((i) => ({ id: i.id, quantity: i.quantity, priceCents: i.priceCents, name: i.name }));
    const emailAboutOrder = (form.elements.namedItem(EMAIL_ABOUT_ORDER_FIELD) as HTMLInputElement | null)?.checked === true;
    try {
      const res = await fetch("/api/checkout", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          cartItems,
          formData: check.data,
          // Same cart and form, same key: a double click, a second tab or a retry finds the same order.
          idempotencyKey: `${checkoutId()}.${fingerprint({ cartItems, form: check.data, code: discount.applied, rate: chosenRate, emailAboutOrder })}`,
          discountCode: discount.applied || undefined,
          shippingRateId: chosenRate ?? undefined,
          emailAboutOrder,
        }),
      });
      const body = (await res.json().catch(() => null)) as (CheckoutErrorBody & { url?: string }) | null;
      if (res.ok && body?.url) {
        // The cart is cleared first, then the browser goes to the payment page.
        leaving.current = true;
        stashCartForCheckout(cart.items);
        cartStore.clear();
        window.location.assign(body.url);
        return;
      }
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      if (body?.problems?.length) cartQuote.reload();
      toast.error(body?.title ?? CHECKOUT_MESSAGES.checkoutFailed.title, {
        description: body?.error ?? CHECKOUT_MESSAGES.checkoutFailed.description,
      });
    } catch {
      toast.error(CHECKOUT_MESSAGES.orderFailed.title, { description: CHECKOUT_MESSAGES.orderFailed.description });
    }
    busy.current = false;
    setProcessing(false);
    if (cartStore.getItems().length === 0) navigate("/cart", { replace: true });
  }

  const unavailable = cart.items.filter((i) => cartQuote.flags[i.id]?.unavailable);
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      {!hydrated || cart.items.length === 0 ? (
        <div className="mt-8 grid gap-4 lg:grid-cols-3" aria-busy="true" aria-label="Loading the checkout">
          <Skeleton className="h-96 lg:col-span-2" />
          <Skeleton className="h-64" />
        </div>
      ) : (
        <form
          onSubmit={submit}
          onChange={(e) => readAddress(e.currentTarget)}
          noValidate
          className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-3"
          aria-label="Checkout"
        >
          <section className="grid min-w-0 content-start gap-4 lg:col-span-2" aria-labelledby="shipping-title">
            <h2 id="shipping-title" className="text-xl font-semibold">
              Shipping Information
            </h2>
            {addresses.length ? <SavedAddressPicker addresses={addresses} selectedId={saved?.id} /> : null}
            <CheckoutFormFields defaults={defaults} errors={errors} />
            <EmailAboutOrder />
            <div className="mt-4">
              <ShippingOptions shipping={shipping} selectedId={chosenRate} onSelect={setRateId} />
            </div>
          </section>
          <div className="min-w-0 lg:sticky lg:top-24 lg:self-start">
            <CartSummary
              quote={cartQuote.quote}
              shipping={shipping}
              taxPending={cartQuote.taxPending}
              failed={cartQuote.failed}
              showLines
              showTax
              beforeTotal={<DiscountCodeField entry={discount} verdict={cartQuote.discount} />}
            >
              {cartQuote.blocked ? (
                <p className="text-sm text-destructive" role="alert">
                  {unavailable.length
                    ? `${unavailable.map((i) => `"${i.name}"`).join(", ")} can no longer be bought. `
                    : "Some items no longer have enough stock. "}
                  <Link to="/cart" className="underline underline-offset-4">
                    Review your cart
                  </Link>
                </p>
              ) : null}
              <Button type="submit" size="lg" disabled={processing || cartQuote.blocked || shipping?.state === "unavailable"} aria-disabled={processing}>
                {processing ? <Loader2 className="animate-spin" aria-hidden /> : <Lock aria-hidden />}
                {processing ? "Processing Order..." : "Place Order"}
              </Button>
              <p className="text-center text-xs text-muted-foreground">You will pay on a secure payment page.</p>
            </CartSummary>
          </div>
        </form>
      )}
    </div>
  );
}
