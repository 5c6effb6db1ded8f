import { beforeEach, describe, expect, it } from "vitest";
import type { CheckoutErrorBody } from "~/lib/checkout";
import type { CartReview } from "~/lib/pricing-view";
import { loader as cartQuote } from "~/routes/resources/cart-quote";
import { action as apiCheckout } from "~/routes/resources/checkout";
import { action as pageAction } from "~/routes/store/checkout";
import { rateLimits } from "~/server/platform/db/schema";
import { checkoutRequest, countOrders, routeArgs, shippingForm } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * A product's id written in another letter case is the same product: the checkout and the cart's
 * quote read ids in one form first, so two lines of one product are one line, judged on the
 * quantity they add up to (stock, the most one line may hold), never each on its own.
 */
const t = useTestDatabase();

beforeEach(async () => {
  await t.db.delete(rateLimits);
});

async function viaApi(body: unknown) {
  const res = (await apiCheckout(routeArgs(checkoutRequest(body)))) as Response;
  return { status: res.status, body: (await res.json()) as CheckoutErrorBody & { url?: string } };
}

async function viaForm(lines: string[]) {
  const fields: [string, string][] = [...Object.entries(shippingForm()), ...lines.map((l): [string, string] => ["line", l])];
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", "x-shop-client-ip": "198.51.100.77" });
  const request = new Request("http://localhost:3000/checkout", { method: "POST", headers, body: new URLSearchParams(fields) });
  const result = (await pageAction(routeArgs(request))) as unknown;
  if (result instanceof Response) return { status: result.status, refusal: null };
  const d = result as { data: { refusal: CheckoutErrorBody | null }; init?: ResponseInit | null };
  return { status: d.init?.status ?? 200, refusal: d.data.refusal };
}

async function quote(lines: string) {
  const res = (await cartQuote(routeArgs(new Request(`http://localhost:3000/api/cart/quote?lines=${encodeURIComponent(lines)}`)))) as Response;
  return { status: res.status, body: (await res.json()) as Partial<CartReview> & { error?: string } };
}

describe("one product on two lines, its id in two letter cases", () => {
  it("POST /api/checkout judges the lines together: 4 + 4 of a product with 5 in stock is refused, no order made", async () => {
    const towel = await makeProduct(t.db, { name: "Bath Towel", priceCents: 3000, stockQuantity: 5 });
    const before = await countOrders(t.db);
    const res = await viaApi({
      cartItems: [
        { id: towel.id, quantity: 4, priceCents: 3000, name: "Bath Towel" },
        { id: towel.id.toUpperCase(), quantity: 4, priceCents: 3000, name: "Bath Towel" },
      ],
      formData: shippingForm(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Only 5 of "Bath Towel" left in stock.');
    expect(res.body.problems).toEqual([{ id: towel.id, message: 'Only 5 of "Bath Towel" left in stock.' }]);
    expect(await countOrders(t.db)).toBe(before);
  });

  it("POST /api/checkout refuses 99 + 99 of one product: one line holds at most 99", async () => {
    const sheet = await makeProduct(t.db, { name: "Flat Sheet", priceCents: 100, unlimitedStock: true, stockQuantity: 0 });
    const before = await countOrders(t.db);
    const res = await viaApi({
      cartItems: [
        { id: sheet.id, quantity: 99, priceCents: 100, name: "Flat Sheet" },
        { id: sheet.id.toUpperCase(), quantity: 99, priceCents: 100, name: "Flat Sheet" },
      ],
      formData: shippingForm(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The quantity of "Flat Sheet" is not valid: quantity must be from 1 to 99.');
    expect(await countOrders(t.db)).toBe(before);
  });

  it("POST /api/checkout places lines of one product that fit as one order line of their sum", async () => {
    const towel = await makeProduct(t.db, { name: "Hand Towel", priceCents: 1200, stockQuantity: 5 });
    const res = await viaApi({
      cartItems: [
        { id: towel.id.toUpperCase(), quantity: 2, priceCents: 1200 },
        { id: towel.id, quantity: 3, priceCents: 1200 },
      ],
      formData: shippingForm(),
    });
    expect(res.status).toBe(200);
    const { orderItems } = await import("~/server/platform/db/schema");
    const { eq } = await import("drizzle-orm");
    const { orders } = await import("~/server/platform/db/schema");
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, (res.body as { orderNumber?: string }).orderNumber!));
    const lines = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(lines.map((l) => [l.productId, l.quantity, l.lineTotalCents, l.stockTracked])).toEqual([[towel.id, 5, 6000, true]]);
    expect(order!.totalAmountCents).toBe(6000);
  });

  it("the checkout page's form judges the lines together too", async () => {
    const towel = await makeProduct(t.db, { name: "Guest Towel", priceCents: 3000, stockQuantity: 5 });
    const before = await countOrders(t.db);
    const res = await viaForm([`${towel.id}:4`, `${towel.id.toUpperCase()}:4`]);
    expect(res.status).toBe(400);
    expect(res.refusal?.error).toBe('Only 5 of "Guest Towel" left in stock.');
    expect(await countOrders(t.db)).toBe(before);
  });

  it("the cart's quote answers one line of the summed quantity, short of stock, and prices it once", async () => {
    const towel = await makeProduct(t.db, { name: "Beach Towel", priceCents: 3000, stockQuantity: 5 });
    const res = await quote(`${towel.id}:4,${towel.id.toUpperCase()}:4`);
    expect(res.status).toBe(200);
    expect(res.body.lines!.map((l) => [l.id, l.available && l.quantity, l.problem])).toEqual([[towel.id, 8, "short"]]);
    expect(res.body.quote!.lines.map((l) => [l.productId, l.quantity])).toEqual([[towel.id, 8]]);
  });

  it("the cart's quote refuses 99 + 99 of one product", async () => {
    const sheet = await makeProduct(t.db, { unlimitedStock: true, stockQuantity: 0 });
    const res = await quote(`${sheet.id}:99,${sheet.id.toUpperCase()}:99`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Quantities must be whole numbers from 1 to 99.");
  });
});
