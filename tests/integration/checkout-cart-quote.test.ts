import { describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { loader } from "~/routes/resources/cart-quote";
import { useTestDatabase } from "../setup/database";
import { routeArgs } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

async function quote(lines: string) {
  const res = (await loader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?lines=${encodeURIComponent(lines)}`)))) as Response;
  return { status: res.status, body: (await res.json()) as Partial<CartReview> & { error?: string } };
}

describe("GET /api/cart/quote", () => {
  it("answers each cart line with the live product, or as unavailable when unknown or inactive", async () => {
    const live = await makeProduct(t.db, { name: "Linen Duvet", priceCents: 9900, stockQuantity: 3, imageUrl: "https://cdn.example.test/a.jpg, https://cdn.example.test/b.jpg" });
    const hidden = await makeProduct(t.db, { active: false });
    const ids = [live.id, hidden.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"];
    const res = await quote(ids.map((id) => `${id}:1`).join(","));
    expect(res.status).toBe(200);
    expect(res.body.lines).toEqual([
      {
        id: live.id,
        available: true,
        name: "Linen Duvet",
        priceCents: 9900,
        imageUrl: "https://cdn.example.test/a.jpg",
        unlimitedStock: false,
        stockQuantity: 3,
        maxQuantity: 3,
        quantity: 1,
        problem: null,
      },
      { id: hidden.id, available: false, problem: "unavailable" },
      { id: "00000000-0000-4000-8000-000000000000", available: false, problem: "unavailable" },
      { id: "not-a-uuid", available: false, problem: "unavailable" },
    ]);
  });

  it("judges the stock of each line and quotes the lines still for sale: shipping free, tax $0.00 on a fresh shop", async () => {
    const duvet = await makeProduct(t.db, { priceCents: 9900, stockQuantity: 3 });
    const sheet = await makeProduct(t.db, { priceCents: 2550, stockQuantity: 0 });
    const pillow = await makeProduct(t.db, { priceCents: 1999, unlimitedStock: true, stockQuantity: 0 });
    const gone = await makeProduct(t.db, { priceCents: 5000, active: false });
    const res = await quote(`${duvet.id}:5,${sheet.id}:1,${pillow.id}:2,${gone.id}:1`);
    expect(res.body.lines!.map((l) => [l.id, l.problem, l.available ? l.maxQuantity : 0])).toEqual([
      [duvet.id, "short", 3],
      [sheet.id, "out_of_stock", 0],
      [pillow.id, null, 99],
      [gone.id, "unavailable", 0],
    ]);
    const q = res.body.quote!;
    expect(q.lines.map((l) => [l.productId, l.lineTotalCents])).toEqual([
      [duvet.id, 49_500],
      [sheet.id, 2550],
      [pillow.id, 3998],
    ]);
    expect(q).toMatchObject({
      subtotalCents: 56_048,
      discount: null,
      shipping: { name: "Standard", amountCents: 0 },
      tax: { amountCents: 0, included: false },
      totalCents: 56_048,
    });
  });

  it("refuses more lines than a cart can hold, and quantities a cart cannot have", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}:1`);
    expect(await quote(ids.join(","))).toEqual({ status: 400, body: { error: "At most 100 products at a time." } });
    expect((await quote(`${"a".repeat(101)}:1`)).body).toEqual({ error: "A product id is too long." });
    for (const bad of ["0", "-1", "1.5", "100", "x"]) {
      expect(await quote(`00000000-0000-4000-8000-000000000000:${bad}`)).toEqual({
        status: 400,
        body: { error: "Quantities must be whole numbers from 1 to 99." },
      });
    }
    expect((await quote("")).body).toMatchObject({ lines: [], quote: { lines: [], subtotalCents: 0, totalCents: 0 } });
  });
});
