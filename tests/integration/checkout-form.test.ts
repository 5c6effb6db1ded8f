import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckoutCartView, CheckoutErrorBody } from "~/lib/checkout";
import { action as apiCheckout } from "~/routes/resources/checkout";
import { action, loader } from "~/routes/store/checkout";
import { cartLines as savedCartLines, orderItems, orders, rateLimits } from "~/server/platform/db/schema";
import { checkoutRequest, countOrders, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, makeZone, resetPricing, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeCustomer, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * The checkout page's own action: the form a browser without JavaScript posts
 * (docs/rules/cart-and-checkout.md, Checkout without JavaScript). It places the order through the
 * same code as POST /api/checkout and answers every refusal in the page with the same words and
 * status; the lines carry ids and quantities only, and any price posted is ignored.
 */
const t = useTestDatabase();

beforeEach(async () => {
  await t.db.delete(rateLimits);
  await resetPricing(t.db);
});

type Answer = {
  refusal: CheckoutErrorBody | null;
  fieldErrors: Record<string, string>;
  values: Record<string, unknown>;
  cart: CheckoutCartView | null;
};

type Fields = [string, string][];

/** The form as the browser sends it: the shipping fields, one `line` per cart line, and anything else given. */
function formOf(lines: [{ id: string }, number][], shipping: Record<string, string> = shippingForm(), extra: Fields = []): Fields {
  return [...Object.entries(shipping), ...lines.map(([p, n]): [string, string] => ["line", `${p.id}:${n}`]), ...extra];
}

function formRequest(fields: Fields, opts: { cookie?: string; ip?: string } = {}) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  headers.set("x-shop-client-ip", opts.ip ?? `198.51.100.${Math.floor(Math.random() * 250) + 1}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  return new Request("http://localhost:3000/checkout", { method: "POST", headers, body: new URLSearchParams(fields) });
}

/** Calls the page's action: a Response (the redirect) or React Router's data() unwrapped into status and body. */
async function submit(fields: Fields, opts: { cookie?: string; ip?: string } = {}) {
  const result = (await action(routeArgs(formRequest(fields, opts)))) as unknown;
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), answer: null };
  const d = result as { data: Answer; init?: ResponseInit | null };
  return { status: d.init?.status ?? 200, location: null, answer: d.data };
}

/** The same checkout sent as JSON to /api/checkout (what the scripted page does), for comparison. */
async function viaApi(body: unknown, ip?: string) {
  const res = (await apiCheckout(routeArgs(checkoutRequest(body, { ip })))) as Response;
  return { status: res.status, body: (await res.json()) as CheckoutErrorBody };
}

/** A refusal answered in the page: the status and words /api/checkout gives for the same checkout, and no order. */
async function expectRefusedLikeApi(fields: Fields, json: unknown, expected: { status: number; title: string; error: string }) {
  const before = await countOrders(t.db);
  const page = await submit(fields);
  expect(page.location).toBeNull();
  expect(page.status).toBe(expected.status);
  expect(page.answer!.refusal).toMatchObject({ title: expected.title, error: expected.error });
  const api = await viaApi(json);
  expect(api.status).toBe(page.status);
  expect(api.body.title).toBe(page.answer!.refusal!.title);
  expect(api.body.error).toBe(page.answer!.refusal!.error);
  expect(await countOrders(t.db)).toBe(before);
  return page.answer!;
}

const orderByNumber = async (orderNumber: string) => (await t.db.select().from(orders).where(eq(orders.orderNumber, orderNumber)))[0]!;
const sessionOf = (location: string) => location.split("/").pop()!;
const orderBySession = async (location: string) => (await t.db.select().from(orders).where(eq(orders.paymentSessionId, sessionOf(location))))[0]!;

describe("the checkout page's form (no JavaScript needed)", () => {
  it("places the order for the signed-in shopper and sends the browser to the payment page (303)", async () => {
    const customer = await makeCustomer(t.db);
    const sheets = await makeProduct(t.db, { name: "Form Sheet Set", priceCents: 8900, stockQuantity: 5 });
    const throw_ = await makeProduct(t.db, { name: "Form Throw", priceCents: 4550, unlimitedStock: true, stockQuantity: 0 });
    const form = shippingForm({ firstName: "Ada", lastName: "Lovelace" });
    const res = await submit(formOf([[sheets, 2], [throw_, 1]], form, [["emailAboutOrder", "on"], ["checkoutKey", crypto.randomUUID()]]), {
      cookie: await sessionCookie(t.db, customer.id),
    });

    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^http:\/\/localhost:3000\/pay\/test\/test_cs_[\w-]{20,}$/);
    const order = await orderBySession(res.location!);
    expect(order).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      userId: customer.id,
      email: form.email,
      firstName: "Ada",
      lastName: "Lovelace",
      subtotalCents: 2 * 8900 + 4550,
      totalAmountCents: 2 * 8900 + 4550,
      emailAboutOrder: true,
    });
    const lines = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(lines.map((l) => [l.name, l.unitPriceCents, l.quantity]).sort()).toEqual([
      ["Form Sheet Set", 8900, 2],
      ["Form Throw", 4550, 1],
    ]);
  });

  it("ignores any price posted with the form: the server prices every line", async () => {
    const duvet = await makeProduct(t.db, { name: "Tamper Duvet", priceCents: 12_000, stockQuantity: 5 });
    const tampered: Fields = [
      ["priceCents", "1"],
      ["price", "0.01"],
      ["line.priceCents", "1"],
      ["cartItems[0][priceCents]", "1"],
      ["total", "1"],
      ["totalAmountCents", "1"],
    ];
    // A price smuggled into the line itself is no quantity: refused, never charged.
    const smuggled = await submit(formOf([], shippingForm(), [["line", `${duvet.id}:1:1`]]));
    expect(smuggled).toMatchObject({ status: 400, location: null });

    const res = await submit(formOf([[duvet, 2]], shippingForm(), tampered));
    expect(res.status).toBe(303);
    const order = await orderBySession(res.location!);
    expect(order).toMatchObject({ subtotalCents: 24_000, totalAmountCents: 24_000 });
  });

  it("answers missing and malformed fields in the page, beside each field, with /api/checkout's words and status; what was typed comes back", async () => {
    const p = await makeProduct(t.db, { name: "Field Pillow", priceCents: 2000 });
    const missing = shippingForm({ firstName: "  ", city: "" });
    const { zipCode: _zip, ...withoutZip } = missing;
    const answer = await expectRefusedLikeApi(
      formOf([[p, 1]], withoutZip),
      { cartItems: [{ id: p.id, quantity: 1 }], formData: withoutZip },
      { status: 400, title: "Missing Information", error: "Please fill in all required fields." },
    );
    expect(answer.fieldErrors).toEqual({ firstName: "Required", city: "Required", zipCode: "Required" });
    expect(answer.values).toMatchObject({ lastName: "Buyer", email: missing.email, address: "1 Linen Lane" });
    // The page is priced again for what was posted, so the summary stays on screen.
    expect(answer.cart?.lines).toEqual([{ id: p.id, quantity: 1 }]);
    expect(answer.cart?.review.quote.totalCents).toBe(2000);

    const bad = shippingForm({ email: "not-an-email", country: "ZZ" });
    const invalid = await expectRefusedLikeApi(
      formOf([[p, 1]], bad),
      { cartItems: [{ id: p.id, quantity: 1 }], formData: bad },
      { status: 400, title: "Invalid Information", error: "Please correct the highlighted fields." },
    );
    expect(invalid.fieldErrors).toEqual({ email: "Enter a valid email address", country: "Choose a country" });
  });

  it("answers an empty cart, unsellable lines, a refused code and an address no zone covers in the page, as /api/checkout does", async () => {
    const form = shippingForm();
    await expectRefusedLikeApi(
      formOf([], form),
      { cartItems: [], formData: form },
      { status: 400, title: "Empty Cart", error: "Your cart is empty. Add some items before checking out." },
    );

    const hidden = await makeProduct(t.db, { name: "Retired Form Quilt", active: false });
    const empty = await makeProduct(t.db, { name: "Sold Out Form Sham", stockQuantity: 0 });
    const low = await makeProduct(t.db, { name: "Last Form Towels", stockQuantity: 2 });
    const problems = await expectRefusedLikeApi(
      formOf([[hidden, 1], [empty, 1], [low, 3]], form),
      { cartItems: [hidden, empty, low].map((p, i) => ({ id: p.id, quantity: i === 2 ? 3 : 1 })), formData: form },
      {
        status: 400,
        title: "Checkout Failed",
        error: '"Retired Form Quilt" is no longer available. "Sold Out Form Sham" is out of stock. Only 2 of "Last Form Towels" left in stock.',
      },
    );
    expect(problems.refusal!.problems!.map((p) => p.id)).toEqual([hidden.id, empty.id, low.id]);

    const p = await makeProduct(t.db, { name: "Code Blanket", priceCents: 2000, stockQuantity: 9 });
    const expired = await makeDiscountCode(t.db, { endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 7_200_000) });
    for (const [code, error] of [
      ["NO-SUCH-CODE", "This code is not valid."],
      [expired.code, "This code has expired."],
      [(await makeDiscountCode(t.db, { minSubtotalCents: 5000 })).code, "This code needs a subtotal of $50.00 or more."],
    ]) {
      await expectRefusedLikeApi(
        formOf([[p, 1]], form, [["discountCode", code!]]),
        { cartItems: [{ id: p.id, quantity: 1 }], formData: form, discountCode: code },
        { status: 400, title: "Checkout Failed", error: error! },
      );
    }

    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "US only", countries: ["US"] });
    const abroad = shippingForm({ country: "DE", state: "Berlin" });
    const noShipping = await expectRefusedLikeApi(
      formOf([[p, 1]], abroad),
      { cartItems: [{ id: p.id, quantity: 1 }], formData: abroad },
      { status: 400, title: "Checkout Failed", error: "We don't ship to this address yet." },
    );
    expect(noShipping.cart?.review.shipping).toEqual({ state: "unavailable", message: "We don't ship to this address yet." });
  });

  it("refuses a line that is not '<id>:<quantity>' with the words /api/checkout uses for a bad quantity", async () => {
    const p = await makeProduct(t.db, { name: "Quantity Rug" });
    const form = shippingForm();
    for (const [line, quantity] of [
      [`${p.id}:0`, 0],
      [`${p.id}:1.5`, 1.5],
      [`${p.id}:100`, 100],
      [`${p.id}:two`, Number.NaN],
    ] as const) {
      const page = await submit(formOf([], form, [["line", line]]));
      expect(page.status, line).toBe(400);
      const api = await viaApi({ cartItems: [{ id: p.id, quantity: Number.isNaN(quantity) ? "two" : quantity }], formData: form });
      expect(page.answer!.refusal!.error, line).toMatch(/^The quantity of a cart line is not valid: quantity must be /);
      expect(api.body.error).toBe(page.answer!.refusal!.error);
    }
  });

  it("one form sent twice (a double click) makes one order and one payment page; a changed form makes another", async () => {
    const p = await makeProduct(t.db, { name: "Double Click Lamp", priceCents: 3000, stockQuantity: 9 });
    const key = crypto.randomUUID();
    const form = shippingForm();
    const fields = formOf([[p, 1]], form, [["checkoutKey", key]]);
    const before = await countOrders(t.db);
    const [a, b] = await Promise.all([submit(fields), submit(fields)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(b.location).toBe(a.location);
    expect(await countOrders(t.db)).toBe(before + 1);
    const changed = await submit(formOf([[p, 2]], form, [["checkoutKey", key]]));
    expect(changed.location).not.toBe(a.location);
    expect(await countOrders(t.db)).toBe(before + 2);

    const forged = await submit(formOf([[p, 1]], form, [["checkoutKey", "<script>"]]));
    expect(forged.status).toBe(400);
    expect(forged.answer!.refusal!.error).toBe("The checkout key is not valid. Reload the page and try again.");
  });

  it("counts against the checkout's rate limit with /api/checkout: the 21st attempt is answered 429 in the page", async () => {
    const p = await makeProduct(t.db, { name: "Limited Sheet" });
    const ip = "192.0.2.91";
    for (let i = 0; i < 20; i++) await viaApi({ cartItems: [], formData: {} }, ip);
    const res = await submit(formOf([[p, 1]]), { ip });
    expect(res.status).toBe(429);
    expect(res.answer!.refusal!.error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
  });

  it("'review' (Apply, Update shipping and totals) prices the form for the typed address, code and method, and places nothing", async () => {
    await withoutDefaultZone(t.db);
    const { rates } = await makeZone(t.db, { name: "US", countries: ["US"] }, [
      { name: "Ground", priceCents: 700, estimate: "3–5 business days" },
      { name: "Overnight", priceCents: 2900 },
    ]);
    const code = await makeDiscountCode(t.db, { code: "FORM10", percentBasisPoints: 1000 });
    const p = await makeProduct(t.db, { name: "Review Duvet", priceCents: 10_000, stockQuantity: 4 });
    const before = await countOrders(t.db);
    const res = await submit(formOf([[p, 1]], shippingForm(), [["intent", "review"], ["discountCode", "form10"], ["shippingRateId", rates[1]!.id]]));
    expect(res.status).toBe(200);
    expect(res.answer!.refusal).toBeNull();
    const review = res.answer!.cart!.review;
    expect(review.discount).toEqual({ code: code.code, applied: true });
    expect(review.shipping).toMatchObject({ state: "known", selectedId: rates[1]!.id, options: [{ name: "Ground" }, { name: "Overnight" }] });
    expect(review.quote).toMatchObject({ subtotalCents: 10_000, discount: { amountCents: 1000 }, shipping: { name: "Overnight", amountCents: 2900 }, totalCents: 11_900 });
    expect(res.answer!.values).toMatchObject({ discountCode: "form10", shippingRateId: rates[1]!.id });

    const nope = await submit(formOf([[p, 1]], shippingForm(), [["intent", "review"], ["discountCode", "NOPE"]]));
    expect(nope.answer!.cart!.review.discount).toEqual({ code: "NOPE", applied: false, message: "This code is not valid." });
    expect(await countOrders(t.db)).toBe(before);

    // The method picked is the one charged.
    const placed = await submit(formOf([[p, 1]], shippingForm(), [["discountCode", "FORM10"], ["shippingRateId", rates[1]!.id]]));
    expect(await orderBySession(placed.location!)).toMatchObject({ shippingName: "Overnight", shippingCents: 2900, discountCode: "FORM10", totalAmountCents: 11_900 });
  });
});

describe("the checkout page's loader", () => {
  it("gives a signed-in shopper's saved cart, priced by the server for the default address, and a checkout key; a guest none", async () => {
    const customer = await makeCustomer(t.db);
    const a = await makeProduct(t.db, { name: "Saved Form Sheet", priceCents: 2500 });
    const b = await makeProduct(t.db, { name: "Saved Form Pillow", priceCents: 1250 });
    await t.db.insert(savedCartLines).values([
      { userId: customer.id, productId: a.id, quantity: 2, updatedAt: new Date(Date.now() - 10) },
      { userId: customer.id, productId: b.id, quantity: 1 },
    ]);
    const request = new Request("http://localhost:3000/checkout", { headers: { cookie: await sessionCookie(t.db, customer.id) } });
    const data = (await loader(routeArgs(request))) as Awaited<ReturnType<typeof loader>>;
    expect(data.signedIn).toBe(true);
    expect(data.checkoutKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.savedCart!.lines).toEqual([
      { id: a.id, quantity: 2 },
      { id: b.id, quantity: 1 },
    ]);
    expect(data.savedCart!.review.quote).toMatchObject({ subtotalCents: 6250, totalCents: 6250 });

    const guest = (await loader(routeArgs(new Request("http://localhost:3000/checkout")))) as Awaited<ReturnType<typeof loader>>;
    expect(guest).toEqual({ email: "", name: "", addresses: [] });
  });
});
