import { Loader2, Lock } from "lucide-react";
import { brandFrom } from "~/lib/seo";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { data, Link, redirect, useNavigate } from "react-router";
import { toast } from "~/lib/toast";
import { useCartQuote, type QuoteContext } from "~/components/store/cart-quote";
import { DiscountCodeField, useDiscountEntry } from "~/components/store/discount-code-field";
import { ShippingOptions } from "~/components/store/shipping-options";
import { useHydrated } from "~/hooks/use-hydrated";
import { CartSummary } from "~/components/store/cart-summary";
import { CheckoutFormFields } from "~/components/store/checkout-form-fields";
import {
  CheckoutNeedsScript,
  CheckoutRefusalNotice,
  PostedCartLines,
  PostedDiscountField,
  UpdateShippingButton,
} from "~/components/store/checkout-without-script";
import { EmailAboutOrder } from "~/components/store/email-about-order";
import { SavedAddressPicker } from "~/components/store/saved-address-picker";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { EMAIL_ABOUT_ORDER_FIELD } from "~/lib/abandoned-checkout";
import { cartStore, checkoutId, MAX_LINE_QUANTITY, stashCartForCheckout, useCart } from "~/lib/cart";
import { mergeCartLines } from "~/lib/cart-lines";
import {
  CHECKOUT_MESSAGES,
  CheckoutLineSchema,
  MAX_CHECKOUT_LINES,
  checkCheckoutForm,
  fingerprint,
  quotedFigures,
  type CheckoutCartView,
  type CheckoutRequestBody,
  type CheckoutErrorBody,
  type CheckoutForm,
  type CheckoutFormField,
  type CheckoutFormValues,
  type RateFigures,
} from "~/lib/checkout";
import { checkoutBodyOf, postedValues, readCheckoutPost, type CheckoutPostValue } from "~/lib/checkout-form-input";
import type { SavedAddress } from "~/lib/saved-address-view";
import { runCheckout } from "~/routes/_edge/checkout.server";
import { responseInit } from "~/routes/_edge/errors.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { parseCheckoutBody, readSavedCart, reviewCart } from "~/server/commerce/index.server";
import { listSavedAddresses } from "~/server/people/index.server";
import { type Db, getDb, readPublicFormBody } from "~/server/platform/http/index.server";
import type { Route } from "./+types/checkout";

const noStore = { "Cache-Control": "no-store" };

/** The lines priced by the server (commerce's reviewCart), as the form without script shows and posts them. */
async function cartView(db: Db, lines: { id: string; quantity: number }[], context: Parameters<typeof reviewCart>[2]): Promise<CheckoutCartView> {
  const r = await reviewCart(db, lines, context);
  return {
    lines: lines.map(({ id, quantity }) => ({ id, quantity })),
    review: { lines: r.lines, quote: r.quote, shipping: r.shipping, taxPending: r.taxPending, discount: r.discount },
    figures: await figuresPerRate(db, lines, context, r),
  };
}

/**
 * The shipping and tax the form shows with each method it offers: without script the page is not
 * priced again when the shopper picks another method, so it posts them all and the order is
 * refused if the picked one's have changed since (docs/money-path.md, No silent re-pricing).
 */
async function figuresPerRate(
  db: Db,
  lines: { id: string; quantity: number }[],
  context: Parameters<typeof reviewCart>[2],
  shown: Awaited<ReturnType<typeof reviewCart>>,
): Promise<RateFigures[]> {
  const figures = (r: typeof shown, rateId: string): RateFigures => ({
    rateId,
    shippingCents: r.shipping.state === "known" ? r.quote.shipping.amountCents : null,
    taxCents: r.taxPending ? null : r.quote.tax.amountCents,
  });
  if (shown.shipping.state !== "known") return [figures(shown, "")];
  const { selectedId, options } = shown.shipping;
  return Promise.all(
    options.map(async (o) => (o.id === selectedId ? figures(shown, o.id) : figures(await reviewCart(db, lines, { ...context, rateId: o.id }), o.id))),
  );
}

/**
 * A signed-in shopper's saved addresses, the default first (docs/rules/after-sale.md, Saved
 * addresses); none for a guest. And, for the form that works without script
 * (docs/rules/cart-and-checkout.md, Checkout without JavaScript), the shopper's saved cart
 * priced by the server for the default address, and a key that makes a double submission one order.
 */
type CheckoutPageData = {
  email: string;
  name: string;
  addresses: SavedAddress[];
  /** Only for a signed-in shopper: */
  signedIn?: true;
  savedCart?: CheckoutCartView | null;
  checkoutKey?: string;
};

export async function loader({ request }: Route.LoaderArgs): Promise<CheckoutPageData> {
  const user = await getCurrentUser(request);
  if (!user) return { email: "", name: "", addresses: [] };
  const db = getDb();
  const [addresses, saved] = await Promise.all([listSavedAddresses(db, user.id), readSavedCart(db, user.id)]);
  const address = addresses.find((a) => a.isDefault) ?? addresses[0];
  const savedCart = saved.items.length
    ? await cartView(db, saved.items, {
        destination: address ? { country: address.country, state: address.state, zipCode: address.zipCode } : null,
        email: user.email,
      })
    : null;
  return { email: user.email, name: user.name, addresses, signedIn: true, savedCart, checkoutKey: crypto.randomUUID() };
}

/** The page's answer to a form that placed no order: why, beside which fields, what was typed, and the cart priced again. */
type CheckoutAnswer = {
  refusal: CheckoutErrorBody | null;
  fieldErrors: Partial<Record<CheckoutFormField, string>>;
  values: CheckoutFormValues;
  cart: CheckoutCartView | null;
};

/** The posted lines that can be priced, for the address, code and shipping method as posted. */
async function postedCart(db: Db, post: CheckoutPostValue): Promise<CheckoutCartView | null> {
  const parsed: { id: string; quantity: number }[] = [];
  for (const raw of post.lines.slice(0, MAX_CHECKOUT_LINES)) {
    const line = CheckoutLineSchema.safeParse(raw);
    if (line.success) parsed.push({ id: line.data.id, quantity: line.data.quantity });
  }
  // One product's lines are one line (lib/cart-lines.ts); a sum over the most a line holds is not priced.
  const lines = mergeCartLines(parsed).filter((l) => l.quantity <= MAX_LINE_QUANTITY);
  if (!lines.length) return null;
  const { country = "", state = "", zipCode = "", email = "" } = post.fields;
  const code = (country.trim() || "US").toUpperCase();
  return cartView(db, lines, {
    destination: /^[A-Z]{2}$/.test(code) ? { country: code, state: state.trim().slice(0, 100), zipCode: zipCode.trim().slice(0, 20) } : null,
    code: post.discountCode?.trim() ? post.discountCode.slice(0, 500) : null,
    rateId: post.shippingRateId?.slice(0, 100) || null,
    email: email.trim().slice(0, 254) || null,
  });
}

/**
 * The checkout form posted by a browser running no script (docs/rules/cart-and-checkout.md,
 * Checkout without JavaScript). 'review' prices the form again and places nothing; otherwise
 * the same runCheckout as POST /api/checkout: a 303 to the payment page, or the refusal in the
 * page with the status /api/checkout answers it with.
 */
export async function action({ request }: Route.ActionArgs) {
  const read = await readPublicFormBody(request);
  if (!read.ok) {
    const body = { title: CHECKOUT_MESSAGES.checkoutFailed.title, error: read.refusal.message };
    return data<CheckoutAnswer>({ refusal: body, fieldErrors: {}, values: {}, cart: null }, responseInit(read.refusal, noStore));
  }
  const post = readCheckoutPost(read.form);
  const values = postedValues(post);
  const db = getDb();
  if (post.intent === "review") {
    return data<CheckoutAnswer>({ refusal: null, fieldErrors: {}, values, cart: await postedCart(db, post) }, { headers: noStore });
  }
  const outcome = await runCheckout(request, () => parseCheckoutBody(checkoutBodyOf(post)));
  if (outcome.ok) return redirect(outcome.url, { status: 303, headers: noStore });
  // Priced again for the page unless the shop is refusing work (rate limit, outage, failure).
  const status = outcome.init.status ?? 400;
  const cart = [400, 409, 502].includes(status) ? await postedCart(db, post) : null;
  return data<CheckoutAnswer>({ refusal: outcome.body, fieldErrors: outcome.body.fieldErrors ?? {}, values, cart }, outcome.init);
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Checkout | ${brand}` },
    { name: "description", content: `Enter your shipping details and pay securely for your ${brand} order.` },
    { name: "robots", content: "noindex" },
  ];
};

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const addresses = loaderData?.addresses ?? [];
  const saved = addresses.find((a) => a.isDefault) ?? addresses[0];
  // What the form posted last time, when the page answers a submission made without script.
  const posted = actionData?.values;
  const hydrated = useHydrated();
  const cart = useCart();
  const navigate = useNavigate();
  const discount = useDiscountEntry();
  const [address, setAddress] = useState<QuoteContext>(() =>
    posted
      ? { country: posted.country || "US", email: posted.email ?? "", state: posted.state ?? "", zipCode: posted.zipCode ?? "" }
      : {
          country: saved?.country ?? "US",
          email: loaderData?.email ?? "",
          ...(saved ? { state: saved.state, zipCode: saved.zipCode } : {}),
        },
  );
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
  const [errors, setErrors] = useState<Partial<Record<CheckoutFormField, string>>>(() => actionData?.fieldErrors ?? {});
  // A refusal the page answered a submission without script with; gone once the page submits itself.
  const [refusal, setRefusal] = useState<CheckoutErrorBody | null>(() => actionData?.refusal ?? null);
  const [processing, setProcessing] = useState(false);
  const busy = useRef(false);
  const leaving = useRef(false);

  const defaults = useMemo<Partial<CheckoutForm>>(() => {
    if (posted) {
      const { firstName, lastName, email, phone, address, city, state, zipCode, country } = posted;
      return { firstName, lastName, email, phone, address, city, state, zipCode, country };
    }
    const email = loaderData?.email ?? "";
    if (saved) {
      const { firstName, lastName, phone, address, city, state, zipCode, country } = saved;
      return { firstName, lastName, phone, address, city, state, zipCode, country, email };
    }
    const [firstName = "", ...rest] = (loaderData?.name ?? "").trim().split(/\s+/);
    return { firstName, lastName: rest.join(" "), email, country: "US" };
  }, [posted, loaderData?.name, loaderData?.email, saved]);

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
    setRefusal(null);
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
    // The shipping and tax on screen: the server refuses to charge other figures without a word.
    const shown = quotedFigures(cartQuote.quote, cartQuote.shipping, cartQuote.taxPending);
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
          ...shown,
        } satisfies CheckoutRequestBody),
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
      // A line, the shipping or the tax changed: the page shows the quote as it is now.
      if (body?.problems?.length || body?.quoteChanged) cartQuote.reload();
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

  // Before the page hydrates, and for good without script, the form is the server's: a signed-in
  // shopper's saved cart (or the lines just posted) as hidden lines, priced by the server, posted
  // to this page's action (docs/rules/cart-and-checkout.md, Checkout without JavaScript).
  const serverCart = hydrated ? null : (actionData?.cart ?? loaderData?.savedCart ?? null);
  const review = serverCart?.review ?? null;
  const shownShipping = hydrated ? shipping : (review?.shipping ?? null);
  const shownRate = hydrated
    ? chosenRate
    : review?.shipping.state === "known"
      ? (review.shipping.options.find((o) => o.id === posted?.shippingRateId)?.id ?? review.shipping.selectedId)
      : null;
  const unavailable = cart.items.filter((i) => cartQuote.flags[i.id]?.unavailable);
  const serverBlocked = review ? review.lines.some((l) => !l.available || l.problem !== null) : false;
  const blocked = hydrated ? cartQuote.blocked : serverBlocked;
  const blockedText = hydrated
    ? unavailable.length
      ? `${unavailable.map((i) => `"${i.name}"`).join(", ")} can no longer be bought. `
      : "Some items no longer have enough stock. "
    : review?.lines.some((l) => !l.available)
      ? "A product in your cart is no longer available. "
      : "Some items no longer have enough stock. ";
  const showForm = hydrated ? cart.items.length > 0 : serverCart !== null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      {!showForm ? (
        <>
          {!hydrated && refusal ? (
            <div className="mt-8">
              <CheckoutRefusalNotice body={refusal} />
            </div>
          ) : null}
          <div className="mt-8 grid gap-4 noscript:hidden lg:grid-cols-3" role="status" aria-busy="true" aria-label="Loading the checkout">
            <Skeleton className="h-96 lg:col-span-2" />
            <Skeleton className="h-64" />
          </div>
          {/* Shown only by a browser that runs no script (the `scripting: none` media feature). */}
          {hydrated ? null : <CheckoutNeedsScript signedIn={loaderData?.signedIn ?? false} />}
        </>
      ) : (
        <form
          method="post"
          action="/checkout"
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
            {refusal ? <CheckoutRefusalNotice body={refusal} /> : null}
            {hydrated && addresses.length ? <SavedAddressPicker addresses={addresses} selectedId={saved?.id} /> : null}
            <CheckoutFormFields defaults={defaults} errors={errors} />
            <EmailAboutOrder defaultChecked={posted?.emailAboutOrder === true} />
            <div className="mt-4">
              <ShippingOptions shipping={shownShipping} selectedId={shownRate} onSelect={setRateId} />
              {hydrated ? null : <UpdateShippingButton />}
            </div>
          </section>
          <div className="min-w-0 lg:sticky lg:top-24 lg:self-start">
            <CartSummary
              quote={hydrated ? cartQuote.quote : (review?.quote ?? null)}
              lastQuote={hydrated ? cartQuote.lastQuote : null}
              shipping={shownShipping}
              taxPending={hydrated ? cartQuote.taxPending : (review?.taxPending ?? false)}
              failed={hydrated ? cartQuote.failed : false}
              showLines
              showTax
              beforeTotal={
                hydrated ? (
                  <DiscountCodeField entry={discount} verdict={cartQuote.discount} />
                ) : (
                  <PostedDiscountField code={posted?.discountCode ?? ""} verdict={review?.discount ?? null} />
                )
              }
            >
              {blocked ? (
                <p className="text-sm text-destructive" role="alert">
                  {blockedText}
                  <Link to="/cart" className="underline underline-offset-4">
                    Review your cart
                  </Link>
                </p>
              ) : null}
              <Button type="submit" size="lg" disabled={processing || blocked || shownShipping?.state === "unavailable"} aria-disabled={processing}>
                {processing ? <Loader2 className="animate-spin" aria-hidden /> : <Lock aria-hidden />}
                {processing ? "Processing Order..." : "Place Order"}
              </Button>
              <p className="text-center text-xs text-muted-foreground">You will pay on a secure payment page.</p>
            </CartSummary>
          </div>
          {serverCart ? <PostedCartLines lines={serverCart.lines} figures={serverCart.figures} checkoutKey={loaderData?.checkoutKey ?? null} /> : null}
        </form>
      )}
    </div>
  );
}
