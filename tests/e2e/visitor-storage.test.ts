import { and, desc, eq, like } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { documentedKey, VISITOR_STORAGE, type StorageKind } from "~/lib/visitor-storage";
import { mailOutbox } from "~/server/platform/db/schema";
import { makePost } from "../factories/posts";
import { makeProduct } from "../factories/products";
import { useShop } from "./harness";
import { formsHydrated, hydrated, open, toast } from "./page-helpers";
import { addToCart, fillShipping, payWith } from "./shopper-steps";

/**
 * What the shop keeps in a new visitor's browser (docs/rules/visitor-storage.md): after each step
 * of a first visit (browse, add to the cart, pay, sign up, sign out, sign in) every cookie and every
 * localStorage and sessionStorage key of the shop's origin must be in app/lib/visitor-storage.ts,
 * whose entries each say why they are strictly necessary: so the shop needs no consent banner.
 */

// The payment page is a round trip through the server and the provider: on a loaded machine it can take past 10 s.
const shop = useShop({ pageTimeout: 30_000 });

type Found = { kind: StorageKind; name: string; step: string };

async function keysNow(page: Page, step: string): Promise<Found[]> {
  const origin = new URL(shop.baseUrl).origin;
  const cookies = await page.context().cookies(origin);
  // Read from a page of the shop's origin (the test payment page is one too).
  expect(new URL(page.url()).origin).toBe(origin);
  const storage = await page.evaluate(() => ({
    localStorage: Object.keys(window.localStorage),
    sessionStorage: Object.keys(window.sessionStorage),
  }));
  return [
    ...cookies.map((c) => ({ kind: "cookie" as const, name: c.name, step })),
    ...storage.localStorage.map((name) => ({ kind: "localStorage" as const, name, step })),
    ...storage.sessionStorage.map((name) => ({ kind: "sessionStorage" as const, name, step })),
  ];
}

async function confirmationLink(email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const [m] = await shop.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, "Confirm%")))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const link = m?.text.match(/https?:\/\/\S+\/auth\/confirm\?token=[^\s"<>]+/)?.[0];
    if (link) return new URL(link).pathname + new URL(link).search;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail to ${email}`);
}

describe("what the shop keeps in a visitor's browser", { timeout: 240_000 }, () => {
  it("a new visitor who browses, buys, signs up, signs out and signs in has only documented, strictly necessary keys", async () => {
    const product = await makeProduct(shop.db, { name: "Storage Test Throw", priceCents: 3200, stockQuantity: 5 });
    const post = await makePost(shop.db, { title: "Caring for Linen", slug: "caring-for-linen", published: true });
    const page = await shop.newPage();
    const seen: Found[] = [];
    const step = async (name: string) => seen.push(...(await keysNow(page, name)));

    await open(page, "/");
    await step("home");
    await open(page, "/shop");
    await page.getByRole("heading", { name: "Storage Test Throw" }).first().waitFor();
    await step("shop");
    await open(page, `/blog/${post.slug}`);
    await page.getByRole("heading", { name: "Caring for Linen" }).waitFor();
    // Back and forth, so the scroll positions of this tab are saved as a visitor's would be.
    await page.goBack();
    await page.goForward();
    await step("blog post");
    await addToCart(page, product.id, "Storage Test Throw");
    await step("product, added to the cart");

    await open(page, "/checkout");
    await fillShipping(page, "storage-visitor@example.test");
    await page.getByRole("button", { name: "Place Order" }).click();
    await page.waitForURL(/\/pay\/test\//);
    await step("test payment page");
    await payWith(page, "4242 4242 4242 4242");
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    await step("paid");

    await open(page, "/auth");
    await formsHydrated(page);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    const signUp = page.getByRole("tabpanel", { name: "Sign Up" });
    await signUp.getByLabel("First Name").fill("Sam");
    await signUp.getByLabel("Last Name").fill("Stored");
    await signUp.getByLabel("Email").fill("storage-visitor@example.test");
    await signUp.getByLabel("Password").fill("linen-storage-2024");
    await signUp.getByRole("button", { name: "Sign Up" }).click();
    await toast(page, "Check your email").waitFor();
    await step("signed up");
    await open(page, await confirmationLink("storage-visitor@example.test"));
    const main = page.getByRole("main");
    await main.getByLabel("Password", { exact: true }).fill("linen-storage-2024");
    await main.getByLabel("Confirm password").fill("linen-storage-2024");
    await main.getByRole("button", { name: "Confirm and sign in" }).click();
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await step("confirmed and signed in");
    expect(seen.some((k) => k.step === "confirmed and signed in" && k.name.endsWith("better-auth.session_token"))).toBe(true);

    await open(page, "/profile");
    await formsHydrated(page);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await toast(page, "Signed out").waitFor();
    await page.waitForURL((u) => u.pathname === "/");
    await step("signed out");

    await open(page, "/auth");
    await formsHydrated(page);
    const signIn = page.getByRole("tabpanel", { name: "Sign In" });
    await signIn.getByLabel("Email").fill("storage-visitor@example.test");
    await signIn.getByLabel("Password").fill("linen-storage-2024");
    await signIn.getByRole("button", { name: "Sign In" }).click();
    await toast(page, "Welcome back!").waitFor();
    await hydrated(page);
    await step("signed in");

    // The run met the storage it is meant to check: the cart and the session.
    expect(seen.some((k) => k.kind === "localStorage" && k.name === "shopping-cart")).toBe(true);
    expect(seen.some((k) => k.kind === "cookie")).toBe(true);
    const undocumented = seen.filter((k) => !documentedKey(k.kind, k.name)).map((k) => `${k.kind} "${k.name}" (after: ${k.step})`);
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it("every documented key says why it is strictly necessary, and the privacy page lists every one", async () => {
    for (const key of VISITOR_STORAGE) {
      expect(key.purpose.length, key.name).toBeGreaterThan(10);
      expect(key.lifetime.length, key.name).toBeGreaterThan(5);
      expect(key.necessary.length, key.name).toBeGreaterThan(10);
    }
    const page = await shop.newPage();
    await open(page, "/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
    await page.waitForURL((u) => u.pathname === "/privacy");
    await page.getByRole("heading", { level: 1, name: "Privacy policy" }).waitFor();
    const text = await page.getByRole("main").innerText();
    for (const key of VISITOR_STORAGE) expect(text, key.name).toContain(key.name);
  });
});
