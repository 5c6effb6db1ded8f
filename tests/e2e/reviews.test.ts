import { describe, expect, it } from "vitest";
import { ONLY_BUYERS } from "~/lib/review-texts";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer, createSession, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";
import { formsHydrated, hydrated, open, seeToast, slow } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping, payWith } from "./shopper-steps";

/**
 * Reviews from verified buyers, from the payment to the product page (docs/rules/after-sale.md,
 * Reviews): buy, write a review, the admin approves and replies in /admin/reviews, and the page
 * (cached for anonymous visitors) shows it with 'Verified purchase', the new rating and its JSON-LD.
 */
const shop = useShop();

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${shop.baseUrl}${path}`, { headers });
  return { cache: res.headers.get("x-page-cache"), cacheControl: res.headers.get("cache-control"), html: await res.text() };
}

function productJsonLd(html: string) {
  for (const [, body] of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    const value = JSON.parse(body!);
    if (value["@type"] === "Product") return value;
  }
  throw new Error("no Product JSON-LD on the page");
}

describe("a verified buyer's review", () => {
  it("buy → review → admin approves and replies → the product page shows it with 'Verified purchase', the new rating and the JSON-LD", async () => {
    // Imported figures: 4.5 from 12 reviews, until the first approval.
    const product = await makeProduct(shop.db, { name: "Washed Linen Pillowcase", priceCents: 3200, rating: 4.5, reviewCount: 12 });
    const path = `/product/${product.id}`;

    // Anonymous visitors share one cached page: the sign-in invitation, nobody's form.
    await get(path);
    const cached = await get(path);
    expect(cached.cache).toBe("hit");
    expect(cached.html).toContain(ONLY_BUYERS);
    expect(cached.html).toContain("Sign in to write a review");
    expect(cached.html).not.toContain("Write a review");

    const page = slow(await asCustomer(shop, { firstName: "Maya", lastName: "Reed" }));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, path);
    await page.getByText(ONLY_BUYERS).waitFor();
    expect(await page.getByRole("form", { name: "Write a review" }).count()).toBe(0);

    // Buy it through the cart, the checkout and the test payment page.
    await addToCart(page, product.id, "Washed Linen Pillowcase");
    await open(page, "/checkout");
    await page.getByRole("button", { name: "Place Order" }).waitFor();
    await fillShipping(page, page.user.email);
    await checkoutForm(page).getByRole("button", { name: "Place Order" }).click();
    await payWith(page, "4242 4242 4242 4242");
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();

    // A signed-in visitor's page is theirs: never from the cache, never kept.
    const { cookieValue } = await createSession(shop.db, page.user.id, E2E_AUTH_SECRET);
    const own = await get(path, { cookie: `${SESSION_COOKIE}=${cookieValue}` });
    expect(own.cache).toBeNull();
    expect(own.cacheControl).toBe("private, no-store");
    expect(own.html).toContain("Write a review");
    expect((await get(path)).html).not.toContain("Write a review");

    await open(page, path);
    await formsHydrated(page).catch(() => hydrated(page));
    const form = page.getByRole("form", { name: "Write a review" });
    await form.getByRole("radio", { name: "4 stars" }).check();
    await form.getByLabel("Title").fill("Cool & crisp <b>every</b> night");
    await form.getByLabel("Your review").fill("Softer after each wash.\nWorth it.");
    await form.getByRole("button", { name: "Submit review" }).click();
    await form.getByText("Reviews are plain text: please remove the HTML tags (the parts in < >).").first().waitFor();
    await form.getByLabel("Title").fill("Cool & crisp every night");
    await form.getByRole("button", { name: "Submit review" }).click();
    await page.getByText("Thank you! Your review will appear once the shop has approved it.").waitFor();
    // Pending: not on the page yet, and the imported figures stay.
    expect((await get(path)).html).not.toContain("Cool &amp; crisp every night");
    await open(page, path);
    await page.getByText("It will appear here once the shop has approved it.").waitFor();

    // The admin approves and replies.
    const admin = slow(await asAdmin(shop));
    await open(admin, "/admin/reviews");
    await admin.getByRole("heading", { name: "Reviews", level: 1 }).waitFor();
    const row = admin.getByRole("row").filter({ hasText: "Cool & crisp every night" });
    await row.getByText("Washed Linen Pillowcase").waitFor();
    await row.getByRole("button", { name: /^Approve review/ }).click();
    await seeToast(admin, "Review approved");
    await open(admin, "/admin/reviews?status=approved");
    const approvedRow = admin.getByRole("row").filter({ hasText: "Cool & crisp every night" });
    await approvedRow.getByText("Reply", { exact: true }).click();
    await approvedRow.getByLabel(/^Reply to review/).fill("Thank you, Maya! Wash them cool.");
    await approvedRow.getByRole("button", { name: "Save reply" }).click();
    await seeToast(admin, "Reply saved.");

    // The anonymous page is rendered afresh: the review, its badge, the reply and the new figures.
    const after = await get(path);
    expect(after.cache).toBe("miss");
    expect(after.html).toContain("Cool &amp; crisp every night");
    expect(after.html).toContain("Verified purchase");
    expect(after.html).toContain("Thank you, Maya! Wash them cool.");
    expect(after.html).not.toContain("Reed");
    const ld = productJsonLd(after.html);
    expect(ld.aggregateRating).toMatchObject({ "@type": "AggregateRating", ratingValue: "4.0", reviewCount: 1 });
    expect(ld.review).toEqual([
      expect.objectContaining({
        "@type": "Review",
        name: "Cool & crisp every night",
        reviewBody: "Softer after each wash.\nWorth it.",
        author: { "@type": "Person", name: "Maya R." },
        reviewRating: expect.objectContaining({ ratingValue: "4", bestRating: "5" }),
      }),
    ]);

    const visitor = await shop.newPage();
    await open(visitor, path);
    const reviews = visitor.getByRole("region", { name: "Customer Reviews" });
    await reviews.getByRole("heading", { name: "Cool & crisp every night" }).waitFor();
    await reviews.getByText("Verified purchase").waitFor();
    await reviews.getByText("Reply from").waitFor();
    expect(await visitor.getByRole("img", { name: "Rated 4.0 out of 5, 1 review" }).count()).toBeGreaterThan(0);

    // The author sees their review approved and no second form.
    await open(page, path);
    await page.getByText("Thank you for your review.", { exact: true }).waitFor();
    expect(await page.getByRole("form", { name: "Write a review" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
