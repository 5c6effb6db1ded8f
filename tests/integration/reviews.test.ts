import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ALREADY_REVIEWED } from "~/server/catalog/reviews/reviews.server";
import { ONLY_BUYERS, REVIEW_RECEIVED } from "~/lib/review-texts";
import { action, loader } from "~/routes/store/product";
import { products, reviews } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderFor, reviewRequest, unwrap, verifiedBuyer } from "./reviews-helpers";
import { args } from "./route-args";

/**
 * Reviews from verified buyers, written on the product page (docs/rules/after-sale.md, Reviews):
 * who may write one, and every bad input the issue lists, refused with a message.
 */
const t = useTestDatabase();

const GOOD = { rating: "5", title: "Softest sheets I own", body: "Washed three times, still lovely." };

async function post(as: { id: string } | null, productId: string, fields: Record<string, string>) {
  return unwrap<{ ok: boolean; message: string; fieldErrors?: Record<string, string> }>(
    await action(await reviewRequest(t.db, as, productId, fields)),
  );
}

async function reviewsOf(productId: string) {
  return t.db.select().from(reviews).where(eq(reviews.productId, productId));
}

async function pageAs(as: { id: string } | null, productId: string, search = "") {
  const request = await requestAs(t.db, as, `/product/${productId}${search}`);
  return unwrap<any>(await loader(args(request, { id: productId }))).body;
}

describe("writing a review", () => {
  it("a shopper with a paid order for the product writes one: pending, under their first name and initial, tied to the order", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product, { firstName: "Maya", lastName: "Reed" });
    expect((await pageAs(buyer, product.id)).ability).toEqual({ kind: "can_review" });

    expect(await post(buyer, product.id, GOOD)).toEqual({ status: 200, body: { ok: true, message: REVIEW_RECEIVED } });
    const [stored] = await reviewsOf(product.id);
    expect(stored).toMatchObject({ userId: buyer.id, authorName: "Maya R.", rating: 5, title: GOOD.title, body: GOOD.body, status: "pending" });
    expect(stored!.orderId).not.toBeNull();

    // Pending: nobody sees it yet; the author is told it waits for approval.
    expect((await pageAs(null, product.id)).reviews).toMatchObject({ reviews: [], total: 0 });
    expect((await pageAs(buyer, product.id)).ability).toEqual({ kind: "reviewed", status: "pending" });
  });

  it("a signed-out visitor is told to sign in; the page offers them the sign-in link state, the same for every anonymous visitor", async () => {
    const product = await makeProduct(t.db);
    expect(await post(null, product.id, GOOD)).toEqual({ status: 401, body: { ok: false, message: "Sign in to write a review." } });
    expect((await pageAs(null, product.id)).ability).toEqual({ kind: "signed_out" });
    expect(await reviewsOf(product.id)).toHaveLength(0);
  });

  it("a review for a product not bought is refused: no order, unpaid, refunded, cancelled, another product, or a guest order in the same email", async () => {
    const product = await makeProduct(t.db);
    const other = await makeProduct(t.db);
    const cases: [string, (userId: string, email: string) => Promise<unknown>][] = [
      ["no order", async () => {}],
      ["unpaid", (id) => orderFor(t.db, id, product, { paymentStatus: "unpaid" })],
      ["refunded", (id) => orderFor(t.db, id, product, { paymentStatus: "refunded", status: "cancelled" })],
      ["cancelled without refund", (id) => orderFor(t.db, id, product, { paymentStatus: "paid", status: "cancelled" })],
      ["another product", (id) => orderFor(t.db, id, other)],
      ["a guest order", async (_id, email) => (await orderFor(t.db, null as unknown as string, product)) && email],
    ];
    for (const [label, setUp] of cases) {
      const customer = await makeCustomer(t.db);
      await setUp(customer.id, customer.email);
      expect(await post(customer, product.id, GOOD), label).toEqual({ status: 403, body: { ok: false, message: ONLY_BUYERS } });
      expect((await pageAs(customer, product.id)).ability, label).toEqual({ kind: "not_bought" });
    }
    expect(await reviewsOf(product.id)).toHaveLength(0);
  });

  it("a second review by the same shopper is refused, even when two are posted at once", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    expect((await post(buyer, product.id, GOOD)).status).toBe(200);
    expect(await post(buyer, product.id, { ...GOOD, title: "Again" })).toEqual({ status: 409, body: { ok: false, message: ALREADY_REVIEWED } });

    const racer = await verifiedBuyer(t.db, product);
    const both = await Promise.all([post(racer, product.id, GOOD), post(racer, product.id, { ...GOOD, rating: "1" })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await reviewsOf(product.id)).toHaveLength(2);
  });

  it("a rating of 0, 6, 4.5, none or a word is refused with the rating's message", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    for (const rating of ["0", "6", "4.5", "", "five", "-1", "1e0"]) {
      const res = await post(buyer, product.id, { ...GOOD, rating });
      expect(res.status, rating).toBe(400);
      expect(res.body.fieldErrors?.rating, rating).toBe("Choose a rating from 1 to 5 stars.");
    }
    const { rating: _, ...noRating } = GOOD;
    expect((await post(buyer, product.id, noRating)).body.fieldErrors?.rating).toBe("Choose a rating from 1 to 5 stars.");
    expect(await reviewsOf(product.id)).toHaveLength(0);
  });

  it("10,000 characters, a missing or 121-character title are refused with their limits", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    const long = await post(buyer, product.id, { ...GOOD, body: "z".repeat(10_000) });
    expect(long.status).toBe(400);
    expect(long.body.fieldErrors?.body).toBe("Your review must be at most 2,000 characters.");
    expect((await post(buyer, product.id, { ...GOOD, title: "   " })).body.fieldErrors?.title).toBe("Give your review a title.");
    expect((await post(buyer, product.id, { ...GOOD, title: "t".repeat(121) })).body.fieldErrors?.title).toBe(
      "The title must be at most 120 characters.",
    );
    expect(await reviewsOf(product.id)).toHaveLength(0);
    // 2,000 is the limit itself, and a review may be a title and stars alone.
    expect((await post(buyer, product.id, { ...GOOD, body: "y".repeat(2000) })).status).toBe(200);
    const other = await makeProduct(t.db);
    await orderFor(t.db, buyer.id, other);
    expect((await post(buyer, other.id, { rating: "4", title: "Nice" })).status).toBe(200);
  });

  it("script or HTML in the title or text is refused; text with a lone < or > is plain text and kept as typed", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    const markup = [
      { body: "<script>alert(1)</script>" },
      { body: 'Lovely <img src=x onerror="alert(1)">' },
      { body: "<a href='javascript:alert(1)'>link</a>" },
      { body: "hidden <!-- comment -->" },
      { body: "<script src=//evil.test/x.js" },
      { title: "<b>Great</b>" },
    ];
    for (const fields of markup) {
      const res = await post(buyer, product.id, { ...GOOD, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(Object.values(res.body.fieldErrors ?? {})).toContain("Reviews are plain text: please remove the HTML tags (the parts in < >).");
    }
    expect(await reviewsOf(product.id)).toHaveLength(0);
    const plain = "I <3 these sheets: thread count > 300 & price < $100.";
    expect((await post(buyer, product.id, { ...GOOD, body: plain })).status).toBe(200);
    expect((await reviewsOf(product.id))[0]!.body).toBe(plain);
  });

  it("markup with a slash where a space would be (<svg/onload=…>) is refused like other tags", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    const markup = [
      { body: "Nice <svg/onload=alert(1)>" },
      { body: "<img/src=x/onerror=alert(1)>" },
      { title: "<svg/onload=alert(1)" },
      { body: "<details open ontoggle=alert(1)" },
    ];
    for (const fields of markup) {
      const res = await post(buyer, product.id, { ...GOOD, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(Object.values(res.body.fieldErrors ?? {})).toContain("Reviews are plain text: please remove the HTML tags (the parts in < >).");
    }
    expect(await reviewsOf(product.id)).toHaveLength(0);
    const plain = "Softer than 2<3 would suggest, a/b tested: 5 stars. x < y/z = ok";
    expect((await post(buyer, product.id, { ...GOOD, body: plain })).status).toBe(200);
  });

  it("a review posted for another user is stored as the signed-in shopper's, and refused when that shopper did not buy", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product);
    const stranger = await makeCustomer(t.db);
    // The stranger names the buyer in the form: the form's user is never read.
    expect(await post(stranger, product.id, { ...GOOD, userId: buyer.id, user_id: buyer.id, authorName: "Buyer" })).toEqual({
      status: 403,
      body: { ok: false, message: ONLY_BUYERS },
    });
    expect(await reviewsOf(product.id)).toHaveLength(0);
    const someone = await verifiedBuyer(t.db, product, { firstName: "Jo", lastName: "Lane" });
    expect((await post(someone, product.id, { ...GOOD, userId: buyer.id, authorName: "Buyer" })).status).toBe(200);
    expect(await reviewsOf(product.id)).toEqual([expect.objectContaining({ userId: someone.id, authorName: "Jo L." })]);
    // The buyer named in that form can still write their own.
    expect((await post(buyer, product.id, GOOD)).status).toBe(200);
  });

  it("a product that is not an id, missing or inactive answers 404 with a message, never a 500", async () => {
    const buyer = await makeCustomer(t.db);
    expect(await post(buyer, "not-a-uuid", GOOD)).toEqual({ status: 404, body: { ok: false, message: "This product is not available." } });
    expect((await post(buyer, "00000000-0000-4000-8000-000000000000", GOOD)).status).toBe(404);
    const inactive = await makeProduct(t.db, { active: false });
    await orderFor(t.db, buyer.id, inactive);
    expect((await post(buyer, inactive.id, GOOD)).status).toBe(404);
  });
});

describe("the product page's reviews", () => {
  it("lists approved reviews only, 5 a page, newest first; a page past the end shows the last", async () => {
    const product = await makeProduct(t.db);
    const base = Date.now() - 3600_000;
    const rows = Array.from({ length: 7 }, (_, i) => ({
      productId: product.id,
      authorName: `Reviewer ${i + 1}`,
      rating: 4,
      title: `Review ${i + 1}`,
      body: "",
      status: "approved" as const,
      createdAt: new Date(base + i * 60_000),
    }));
    await t.db.insert(reviews).values([
      ...rows,
      { ...rows[0]!, title: "Pending one", status: "pending" as const, createdAt: new Date() },
      { ...rows[0]!, title: "Hidden one", status: "hidden" as const, createdAt: new Date() },
    ]);
    const first = (await pageAs(null, product.id)).reviews;
    expect(first).toMatchObject({ total: 7, page: 1, pages: 2 });
    expect(first.reviews.map((r: { title: string }) => r.title)).toEqual(["Review 7", "Review 6", "Review 5", "Review 4", "Review 3"]);
    const second = (await pageAs(null, product.id, "?reviews=2")).reviews;
    expect(second.reviews.map((r: { title: string }) => r.title)).toEqual(["Review 2", "Review 1"]);
    expect((await pageAs(null, product.id, "?reviews=99")).reviews.page).toBe(2);
    expect((await pageAs(null, product.id, "?reviews=abc")).reviews.page).toBe(1);
  });

  it("gives an anonymous visitor nobody's email or account, and a reviewer's surname only as an initial", async () => {
    const product = await makeProduct(t.db);
    const buyer = await verifiedBuyer(t.db, product, { firstName: "Maya", lastName: "Reed" });
    await post(buyer, product.id, GOOD);
    await t.db.update(reviews).set({ status: "approved" }).where(eq(reviews.productId, product.id));
    const page = JSON.stringify(await pageAs(null, product.id));
    expect(page).toContain("Maya R.");
    expect(page).not.toContain("Reed");
    expect(page).not.toContain(buyer.email);
    expect(page).not.toContain(buyer.id);
  });
});

describe("a product's figures before any review", () => {
  it("an imported rating stays while reviews are only written", async () => {
    const product = await makeProduct(t.db, { rating: 4.5, reviewCount: 12 });
    const buyer = await verifiedBuyer(t.db, product);
    await post(buyer, product.id, GOOD);
    const [p] = await t.db.select({ rating: products.rating, reviewCount: products.reviewCount }).from(products).where(eq(products.id, product.id));
    expect(p).toEqual({ rating: 4.5, reviewCount: 12 });
  });
});
