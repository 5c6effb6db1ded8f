import { describe, expect, it, vi } from "vitest";
import { makeProduct } from "../factories/products";
import { makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { useShop } from "./harness";
import { hydrated, open, slow } from "./page-helpers";
import { addToCart, checkoutForm } from "./shopper-steps";

// docs/rules/addresses.md: a region typed or autofilled by name is read as its code; anything else is refused.
vi.setConfig({ testTimeout: 180_000 });

const shop = useShop();

describe("the checkout's State field", () => {
  it("offers the country's regions; 'California' pays California's tax and rate; 'Atlantis' is refused beside the field", async () => {
    await resetPricing(shop.db);
    await withoutDefaultZone(shop.db);
    await makeZone(shop.db, { name: "US", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
    await makeZone(shop.db, { name: "California", countries: ["US"], regions: ["CA"] }, [{ name: "California Ground", priceCents: 800 }]);
    await setTax(shop.db, { taxName: "Sales tax" }, [{ country: "US", region: "CA", percent: 7.25 }]);
    const sheet = await makeProduct(shop.db, { name: "Percale Sheet Set", priceCents: 10_000, stockQuantity: 5 });

    const page = slow(await shop.newPage());
    await addToCart(page, sheet.id, "Percale Sheet Set");
    await open(page, "/checkout");
    await hydrated(page);
    const form = checkoutForm(page);
    expect(await page.locator("#checkout-state-regions option[value='California']").count()).toBe(1);
    await form.getByLabel("First Name").fill("Casey");
    await form.getByLabel("Last Name").fill("Buyer");
    await form.getByRole("textbox", { name: "Email" }).fill("casey@example.test");
    await form.getByLabel("Address").fill("1 Market St");
    await form.getByLabel("City").fill("San Francisco");
    await form.getByLabel("State").fill("California");
    await form.getByLabel("ZIP Code").fill("94103");
    await page.getByText("Sales tax 7.25%").waitFor();
    await page.getByRole("group", { name: "Shipping Method" }).getByRole("radio", { name: /California Ground/ }).waitFor();
    // 100.00 + 8.00 + 7.25
    await page.getByTestId("order-total").filter({ hasText: "$115.25" }).waitFor();

    await form.getByLabel("State").fill("Atlantis");
    await page.getByRole("button", { name: "Place Order" }).click();
    await form.getByText("Choose a state or region from the list.").waitFor();
    expect(page.url()).toMatch(/\/checkout$/);
  });
});
