import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ProductReviews } from "~/components/store/product-reviews";
import { action, loader } from "~/routes/admin/reviews";
import { loader as productLoader } from "~/routes/store/product";
import { products, reviews, storefrontChanges } from "~/server/platform/db/schema";
import { setReviewStatus } from "~/server/catalog/reviews/moderation.server";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { unwrap } from "./reviews-helpers";
import { args } from "./route-args";

/**
 * /admin/reviews (docs/rules/after-sale.md, Reviews): approve, hide, reply, and the product's
 * rating and review count computed from the approved reviews.
 */
const t = useTestDatabase();

type Product = Awaited<ReturnType<typeof makeProduct>>;

async function review(product: Product, rating: number, fields: Partial<typeof reviews.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(reviews)
    .values({ productId: product.id, authorName: "Casey C.", rating, title: `${rating} stars`, body: "", ...fields })
    .returning();
  return row!;
}

async function figures(product: Product) {
  const [p] = await t.db.select({ rating: products.rating, reviewCount: products.reviewCount }).from(products).where(eq(products.id, product.id));
  return p!;
}

let admin: { id: string };
async function moderate(fields: Record<string, string>, as: { id: string } | null = admin) {
  admin ??= await makeAdmin(t.db);
  const request = await requestAs(t.db, as ?? admin, "/admin/reviews", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  return unwrap<{ ok: boolean; message: string }>(await action(args(request)));
}

async function adminList(search: string) {
  admin ??= await makeAdmin(t.db);
  return unwrap<any>(await loader(args(await requestAs(t.db, admin, `/admin/reviews${search}`)))).body;
}

async function productPageChanges(product: Product) {
  const rows = await t.db.select().from(storefrontChanges).where(eq(storefrontChanges.productId, product.id));
  return rows.length;
}

describe("the rating and review count", () => {
  it("an imported rating stays until the first approval; then approved reviews alone make it, down to 0 reviews when the last is hidden", async () => {
    const product = await makeProduct(t.db, { rating: 4.5, reviewCount: 12 });
    const five = await review(product, 5);
    const two = await review(product, 2);
    const pendingOne = await review(product, 1);
    expect(await figures(product)).toEqual({ rating: 4.5, reviewCount: 12 });

    expect(await moderate({ intent: "approve", id: five.id })).toEqual({
      status: 200,
      body: { ok: true, message: "Review approved: it now shows on the product page." },
    });
    expect(await figures(product)).toEqual({ rating: 5, reviewCount: 1 });
    await moderate({ intent: "approve", id: two.id });
    expect(await figures(product)).toEqual({ rating: 3.5, reviewCount: 2 });
    // Hiding a review nobody saw changes nothing.
    await moderate({ intent: "hide", id: pendingOne.id });
    expect(await figures(product)).toEqual({ rating: 3.5, reviewCount: 2 });
    await moderate({ intent: "hide", id: five.id });
    expect(await figures(product)).toEqual({ rating: 2, reviewCount: 1 });
    await moderate({ intent: "hide", id: two.id });
    expect(await figures(product)).toEqual({ rating: 0, reviewCount: 0 });
    await moderate({ intent: "approve", id: five.id });
    expect(await figures(product)).toEqual({ rating: 5, reviewCount: 1 });
  });

  it("averages to two decimals (4, 4, 5 → 4.33), and hiding a pending review leaves an imported rating alone", async () => {
    const product = await makeProduct(t.db, { rating: 3.9, reviewCount: 40 });
    const pending = await review(product, 1);
    await setReviewStatus(t.db, pending.id, "hidden");
    expect(await figures(product)).toEqual({ rating: 3.9, reviewCount: 40 });
    for (const r of [4, 4, 5]) await setReviewStatus(t.db, (await review(product, r)).id, "approved");
    expect((await figures(product)).rating).toBeCloseTo(4.33, 5);
    expect((await figures(product)).reviewCount).toBe(3);
  });

  it("twelve approvals at once all count", async () => {
    const product = await makeProduct(t.db, { rating: 0, reviewCount: 0 });
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await review(product, (i % 5) + 1, { title: `r${i}` }));
    await Promise.all(made.map((r) => setReviewStatus(t.db, r.id, "approved")));
    const expected = made.reduce((s, r) => s + r.rating, 0) / made.length;
    const f = await figures(product);
    expect(f.reviewCount).toBe(12);
    expect(f.rating).toBeCloseTo(Math.round(expected * 100) / 100, 5);
  });

  it("an approval, a hide and a reply each mark the product page changed for the page cache, even when the figures stay the same", async () => {
    // Imported 4.0 of 1 review, then one 4-star review approved: no product column changes.
    const product = await makeProduct(t.db, { rating: 4, reviewCount: 1 });
    const r = await review(product, 4);
    await t.db.delete(storefrontChanges);
    await moderate({ intent: "approve", id: r.id });
    expect(await figures(product)).toEqual({ rating: 4, reviewCount: 1 });
    expect(await productPageChanges(product)).toBe(1);
    await moderate({ intent: "reply", id: r.id, reply: "Thank you!" });
    expect(await productPageChanges(product)).toBe(2);
    await moderate({ intent: "hide", id: r.id });
    expect(await productPageChanges(product)).toBe(3);
    // A change to the figures also marks every listing (the products trigger: a row without product).
    const listings = await t.db.select().from(storefrontChanges).where(sql`${storefrontChanges.productId} is null`);
    expect(listings.length).toBeGreaterThan(0);
  });
});

describe("/admin/reviews", () => {
  it("lists pending reviews by default and filters by status, with the product, author's email and order", async () => {
    const product = await makeProduct(t.db, { name: "Filter Test Duvet" });
    const customer = await makeCustomer(t.db);
    const waiting = await review(product, 5, { title: "Waiting one", userId: customer.id });
    const shown = await review(product, 4, { title: "Shown one" });
    await setReviewStatus(t.db, shown.id, "approved");
    const pendingList = await adminList("");
    expect(pendingList.filter).toBe("pending");
    expect(pendingList.reviews.map((r: { title: string }) => r.title)).toContain("Waiting one");
    expect(pendingList.reviews.map((r: { title: string }) => r.title)).not.toContain("Shown one");
    expect(pendingList.reviews.find((r: { id: string }) => r.id === waiting.id)).toMatchObject({
      productName: "Filter Test Duvet",
      authorEmail: customer.email,
    });
    const approved = await adminList("?status=approved");
    expect(approved.reviews.map((r: { title: string }) => r.title)).toContain("Shown one");
    expect((await adminList("?status=nonsense")).filter).toBe("pending");
    expect((await adminList("?status=all")).reviews.length).toBeGreaterThanOrEqual(2);
  });

  it("a reply shows under the review on the product page; an empty reply removes it", async () => {
    const product = await makeProduct(t.db);
    const r = await review(product, 5);
    await setReviewStatus(t.db, r.id, "approved");
    expect(await moderate({ intent: "reply", id: r.id, reply: "  Thanks for sleeping with us!  " })).toEqual({
      status: 200,
      body: { ok: true, message: "Reply saved." },
    });
    const page = async () => unwrap<any>(await productLoader(args(await requestAs(t.db, null, `/product/${product.id}`), { id: product.id }))).body;
    expect((await page()).reviews.reviews[0].reply).toBe("Thanks for sleeping with us!");
    expect(await moderate({ intent: "reply", id: r.id, reply: "" })).toEqual({ status: 200, body: { ok: true, message: "Reply removed." } });
    expect((await page()).reviews.reviews[0].reply).toBeNull();
  });

  it("bad requests get a message and a 4xx: unknown review, not an id, unknown intent, a reply too long", async () => {
    const product = await makeProduct(t.db);
    const r = await review(product, 3);
    expect(await moderate({ intent: "approve", id: "00000000-0000-4000-8000-000000000000" })).toEqual({
      status: 404,
      body: { ok: false, message: "This review no longer exists." },
    });
    expect((await moderate({ intent: "hide", id: "'; drop table reviews; --" })).status).toBe(404);
    expect((await moderate({ intent: "reply", id: "nope", reply: "hi" })).status).toBe(404);
    expect(await moderate({ intent: "delete", id: r.id })).toEqual({ status: 400, body: { ok: false, message: "This action is not supported" } });
    expect(await moderate({ intent: "reply", id: r.id, reply: "x".repeat(2001) })).toEqual({
      status: 400,
      body: { ok: false, message: "A reply must be at most 2,000 characters." },
    });
  });

  it("customers are refused (403) and visitors sent to sign in, for the list and for every action", async () => {
    const customer = await makeCustomer(t.db);
    const product = await makeProduct(t.db);
    const r = await review(product, 5);
    const asCustomer = await requestAs(t.db, customer, "/admin/reviews");
    await expect(loader(args(asCustomer))).rejects.toMatchObject({ init: { status: 403 } });
    const post = await requestAs(t.db, customer, "/admin/reviews", {
      method: "POST",
      body: new URLSearchParams({ intent: "approve", id: r.id }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expect(action(args(post))).rejects.toMatchObject({ init: { status: 403 } });
    const anonymous = await requestAs(t.db, null, "/admin/reviews");
    const redirect = await loader(args(anonymous)).catch((e: unknown) => e);
    expect((redirect as Response).headers.get("location")).toBe("/auth?redirectTo=%2Fadmin%2Freviews");
    expect((await t.db.select().from(reviews).where(eq(reviews.id, r.id)))[0]!.status).toBe("pending");
  });
});

describe("stored text on the page", () => {
  it("a review or reply holding markup (stored before the rule, or by an admin) is printed as text, never as HTML", () => {
    const hostile = "<script>alert('x')</script><img src=x onerror=alert(1)>";
    const router = createMemoryRouter(
      [
        {
          path: "/",
          element: createElement(ProductReviews, {
            productId: "00000000-0000-4000-8000-000000000000",
            shopName: "Linen & Loft",
            page: {
              reviews: [{ id: "r1", authorName: "<b>Eve</b>", rating: 5, title: hostile, body: hostile, reply: hostile, createdAt: new Date().toISOString(), day: "November 22, 2026" }],
              total: 1,
              page: 1,
              pages: 1,
            },
            ability: { kind: "signed_out" },
            result: undefined,
          }),
        },
      ],
      { initialEntries: ["/"] },
    );
    const html = renderToStaticMarkup(createElement(RouterProvider, { router }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>Eve");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("Verified purchase");
    expect(html).toContain("Only customers who bought this item can review it.");
  });
});
