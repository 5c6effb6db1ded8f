import { describe, it } from "vitest";
import { makeDiscountCode } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useShop } from "./harness";
import { hydrated, open, slow } from "./page-helpers";
import { addToCart } from "./shopper-steps";

/**
 * The cart page as someone guessing codes sees it (docs/rules/cart-and-checkout.md, "Discount
 * codes cannot be guessed"): a used-up code reads like an unknown one, and after 30 different
 * wrong codes even a real one is not looked up; the cart's total is still shown.
 */
const shop = useShop();

describe("guessing discount codes on the cart page", () => {
  it("a used-up code reads 'This code is not valid.'; past 30 wrong codes the shopper is told to wait, even for a real code", async () => {
    const towel = await makeProduct(shop.db, { name: "Guest Towel", priceCents: 2_000, stockQuantity: 5 });
    await makeDiscountCode(shop.db, { code: "SPENT", usageLimit: 1, usesCount: 1 });
    await makeDiscountCode(shop.db, { code: "STAFF40", percentBasisPoints: 4000 });
    const page = slow(await shop.newPage());
    await addToCart(page, towel.id, "Guest Towel");
    await open(page, "/cart");
    await page.getByTestId("order-total").filter({ hasText: "$20.00" }).waitFor();
    await hydrated(page);
    const apply = async (code: string) => {
      await page.getByLabel("Discount code").fill(code);
      await page.getByRole("button", { name: "Apply" }).click();
    };
    await apply("SPENT");
    await page.getByText("This code is not valid.").waitFor();
    for (let i = 1; i <= 30; i++) {
      await apply(`GUESS${i}`);
      await page.getByText("This code is not valid.").waitFor();
    }
    await apply("GUESS31");
    await page.getByText(/Too many attempts, try again in \d+ minutes?/).waitFor();
    await apply("STAFF40");
    await page.getByText(/Too many attempts, try again in \d+ minutes?/).waitFor();
    await page.getByTestId("order-total").filter({ hasText: "$20.00" }).waitFor();
  });
});
