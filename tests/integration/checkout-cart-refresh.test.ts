import { describe, expect, it } from "vitest";
import { loader } from "~/routes/resources/cart-refresh";
import { useTestDatabase } from "../setup/database";
import { routeArgs } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

async function refresh(ids: string) {
  const res = (await loader(routeArgs(new Request(`http://localhost:3000/api/cart/refresh?ids=${encodeURIComponent(ids)}`)))) as Response;
  return { status: res.status, body: (await res.json()) as { lines?: Record<string, unknown>[]; error?: string } };
}

describe("GET /api/cart/refresh", () => {
  it("answers each cart line with the live product, or as unavailable when unknown or inactive", async () => {
    const live = await makeProduct(t.db, { name: "Linen Duvet", priceCents: 9900, stockQuantity: 3, imageUrl: "https://cdn.example.test/a.jpg, https://cdn.example.test/b.jpg" });
    const hidden = await makeProduct(t.db, { active: false });
    const ids = [live.id, hidden.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"];
    const res = await refresh(ids.join(","));
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
      },
      { id: hidden.id, available: false },
      { id: "00000000-0000-4000-8000-000000000000", available: false },
      { id: "not-a-uuid", available: false },
    ]);
  });

  it("refuses more ids than a cart can hold", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect(await refresh(ids.join(","))).toEqual({ status: 400, body: { error: "At most 100 products at a time." } });
    expect((await refresh("")).body).toEqual({ lines: [] });
  });
});
