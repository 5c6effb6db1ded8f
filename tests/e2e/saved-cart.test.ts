import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { cartLines, products } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { makeCustomer, signInPageAs } from "../factories/users";
import { useShop } from "./harness";
import { open, slow } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping, payWith } from "./shopper-steps";

/**
 * The cart follows a signed-in shopper (docs/rules/after-sale.md, The cart of a signed-in
 * shopper): two browsers signed in as the same shopper share one cart, a guest cart joins it on
 * signing in, and signing out leaves the device's cart empty.
 */
const shop = useShop();

const cartLink = (page: Page, count: number) => page.getByRole("banner").getByRole("link", { name: `Cart, ${count} ${count === 1 ? "item" : "items"}` });

async function saved(userId: string) {
  const rows = await shop.db.select({ id: cartLines.productId, quantity: cartLines.quantity }).from(cartLines).where(eq(cartLines.userId, userId));
  return Object.fromEntries(rows.map((r) => [r.id, r.quantity]));
}

/** Reloads the cart page and waits for the line to show `quantity` (the saved cart arrives just after the page). */
async function seeQuantity(page: Page, name: string, quantity: string) {
  await open(page, "/cart");
  const box = page.getByRole("spinbutton", { name: `Quantity of ${name}` });
  await box.waitFor();
  await expect.poll(() => box.inputValue()).toBe(quantity);
}

describe("the cart of a signed-in shopper", () => {
  it("two browsers signed in as the same shopper: add on one, reload the other and the cart follows; sign out empties that device only", async () => {
    const shopper = await makeCustomer(shop.db);
    const sheet = await makeProduct(shop.db, { name: "Follow Me Sheet Set", priceCents: 4500 });
    const laptop = slow(await shop.newPage());
    const phone = slow(await shop.newPage());
    await signInPageAs(shop, laptop, shopper);
    await signInPageAs(shop, phone, shopper);
    const chunks: string[] = [];
    laptop.on("request", (r) => chunks.push(r.url()));
    await open(laptop, "/");
    await open(phone, "/");

    await addToCart(laptop, sheet.id, "Follow Me Sheet Set");
    await expect.poll(() => saved(shopper.id)).toEqual({ [sheet.id]: 1 });
    // The sync code came with the signed-in visit only (a guest's pages never ask for it).
    expect(chunks.some((u) => /\/assets\/cart-sync[-.]/.test(u))).toBe(true);

    await seeQuantity(phone, "Follow Me Sheet Set", "1");
    const box = phone.getByRole("spinbutton", { name: "Quantity of Follow Me Sheet Set" });
    await box.fill("3");
    await box.press("Enter");
    await expect.poll(() => saved(shopper.id)).toEqual({ [sheet.id]: 3 });
    await seeQuantity(laptop, "Follow Me Sheet Set", "3");

    // Signing out on the phone empties the phone's cart, not the saved one.
    await open(phone, "/profile");
    await phone.getByRole("button", { name: "Sign Out" }).click();
    await phone.waitForURL((u) => u.pathname === "/");
    await cartLink(phone, 0).waitFor();
    expect(await phone.evaluate(() => window.localStorage.getItem("shopping-cart"))).toBe("[]");
    await open(phone, "/cart");
    await phone.getByText("Your cart is empty").waitFor();
    expect(await saved(shopper.id)).toEqual({ [sheet.id]: 3 });
    await seeQuantity(laptop, "Follow Me Sheet Set", "3");
  });

  it("a guest's cart joins the saved one on signing in: the larger quantity, capped by stock; a product since deactivated is dropped and named", async () => {
    const shopper = await makeCustomer(shop.db);
    const pillow = await makeProduct(shop.db, { name: "Merge Pillow", stockQuantity: 2 });
    const throwBlanket = await makeProduct(shop.db, { name: "Merge Throw" });
    const quilt = await makeProduct(shop.db, { name: "Retiring Quilt" });
    // The saved cart, from another device.
    await shop.db.insert(cartLines).values([
      { userId: shopper.id, productId: pillow.id, quantity: 1 },
      { userId: shopper.id, productId: quilt.id, quantity: 1 },
    ]);

    const guest = slow(await shop.newPage());
    const chunks: string[] = [];
    guest.on("request", (r) => chunks.push(r.url()));
    await addToCart(guest, throwBlanket.id, "Merge Throw");
    for (let i = 0; i < 3; i++) await guest.getByRole("button", { name: "Add to Cart" }).click();
    await addToCart(guest, pillow.id, "Merge Pillow");
    await guest.getByRole("button", { name: "Add to Cart" }).click();
    await guest.getByRole("button", { name: "Add to Cart" }).click();
    await cartLink(guest, 7).waitFor();
    expect(chunks.some((u) => /\/assets\/cart-sync[-.]/.test(u))).toBe(false);
    await shop.db.update(products).set({ active: false }).where(eq(products.id, quilt.id));

    await signInPageAs(shop, guest, shopper);
    await open(guest, "/cart");
    const notice = guest.getByRole("status", { name: "Some items in your cart changed" });
    await notice.getByText("Retiring Quilt is no longer available and was removed.").waitFor();
    await notice.getByText("Merge Pillow: only 2 left, so your cart holds 2.").waitFor();
    expect(await guest.getByRole("spinbutton", { name: "Quantity of Merge Pillow" }).inputValue()).toBe("2");
    expect(await guest.getByRole("spinbutton", { name: "Quantity of Merge Throw" }).inputValue()).toBe("4");
    await cartLink(guest, 6).waitFor();
    expect(await saved(shopper.id)).toEqual({ [pillow.id]: 2, [throwBlanket.id]: 4 });
    await notice.getByRole("button", { name: "Dismiss" }).click();
    await notice.waitFor({ state: "detached" });
  });

  it("a paid order empties the saved cart too: the cart does not come back on the next page", async () => {
    const shopper = await makeCustomer(shop.db);
    const duvet = await makeProduct(shop.db, { name: "Paid Duvet" });
    const page = slow(await shop.newPage());
    await signInPageAs(shop, page, shopper);
    await addToCart(page, duvet.id, "Paid Duvet");
    await expect.poll(() => saved(shopper.id)).toEqual({ [duvet.id]: 1 });
    await open(page, "/checkout");
    await page.getByRole("button", { name: "Place Order" }).waitFor();
    await fillShipping(page, shopper.email);
    await checkoutForm(page).getByRole("button", { name: "Place Order" }).click();
    await payWith(page, "4242 4242 4242 4242");
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    await expect.poll(() => saved(shopper.id)).toEqual({});
    await open(page, "/cart");
    await page.getByText("Your cart is empty").waitFor();
    await cartLink(page, 0).waitFor();
  });
});
