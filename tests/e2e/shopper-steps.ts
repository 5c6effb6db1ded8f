import type { Page } from "playwright-core";
import { open } from "./page-helpers";

/** Adds one of a product from its page and waits for the shop to say so. */
export async function addToCart(page: Page, productId: string, name: string) {
  await open(page, `/product/${productId}`);
  await page.getByRole("heading", { name }).waitFor();
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await page.getByText(`${name} has been added to your cart.`).first().waitFor();
}

export const checkoutForm = (page: Page) => page.getByRole("form", { name: "Checkout" });

/** Fills the checkout's shipping fields with a valid address. */
export async function fillShipping(page: Page, email: string) {
  const form = checkoutForm(page);
  await form.getByLabel("First Name").fill("Casey");
  await form.getByLabel("Last Name").fill("Buyer");
  await form.getByRole("textbox", { name: "Email" }).fill(email);
  await form.getByLabel("Address").fill("1 Linen Lane");
  await form.getByLabel("City").fill("Springfield");
  await form.getByLabel("State").fill("IL");
  await form.getByLabel("ZIP Code").fill("62701");
}

/** Pays on the hosted test payment page with `card`; answers the session id the result page shows. */
export async function payWith(page: Page, card: string) {
  await page.waitForURL(/\/pay\/test\/test_cs_/);
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry date").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay" }).click();
  await page.waitForURL(/\/order-success\?session_id=test_cs_/);
  return new URL(page.url()).searchParams.get("session_id")!;
}
