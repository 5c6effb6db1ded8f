import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeProduct } from "../factories/products";
import { makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { useShop } from "./harness";
import { asCustomer } from "../factories/users";
import { hydrated, open, seeToast, slow } from "./page-helpers";
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
    // The list is loaded once the page is up, not in its first load.
    await expect.poll(() => page.locator("#checkout-state-regions option[value='California']").count()).toBe(1);
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

  it("in the address book offers the chosen country's regions, and 'Ontario' is saved and shown as ON", async () => {
    const shopper = slow(await asCustomer(shop));
    await open(shopper, "/profile?tab=addresses");
    await hydrated(shopper);
    await shopper.getByRole("button", { name: "Add address" }).click();
    const form = shopper.getByRole("form", { name: "New address" });
    await form.getByLabel("Country").selectOption("CA");
    const state = form.getByLabel("State", { exact: true });
    const list = await state.getAttribute("list");
    await expect.poll(() => shopper.locator(`datalist[id='${list}'] option[value='Ontario']`).count()).toBe(1);
    expect(await shopper.locator(`datalist[id='${list}'] option[value='California']`).count()).toBe(0);
    const fields = { "First Name": "Ann", "Last Name": "Lee", Address: "1 King St W", City: "Toronto", State: "Ontario", "ZIP Code": "M5H 1A1" };
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole("button", { name: "Save address" }).click();
    await seeToast(shopper, "Address saved");
    await shopper.getByRole("list", { name: "Your addresses" }).getByText("Toronto, ON M5H 1A1").waitFor();
  });
});

describe("the region list's weight", () => {
  it("is in no page's first load: every route's first-load chunks are free of it, and it is one chunk of its own", () => {
    // The build the browser tests run; its React Router manifest names each route's first-load chunks.
    const client = path.resolve(process.env.SHOP_BUILD_DIR || "build", "client");
    const assets = path.join(client, "assets");
    const manifestFile = fs.readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f))!;
    const text = fs.readFileSync(path.join(assets, manifestFile), "utf8");
    type Route = { module: string; imports?: string[]; parentId?: string };
    const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
      entry: { module: string; imports: string[] };
      routes: Record<string, Route>;
    };
    // A name only the ISO 3166-2 list holds (a province of Afghanistan).
    const carriesList = (file: string) => fs.readFileSync(path.join(client, file), "utf8").includes("Badakhsh");
    const withList = fs.readdirSync(assets).filter((f) => f.endsWith(".js") && carriesList(`/assets/${f}`));
    expect(withList).toHaveLength(1);
    const carriers = Object.keys(manifest.routes).filter((id) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (let r: Route | undefined = manifest.routes[id]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
        files.add(r.module);
        for (const f of r.imports ?? []) files.add(f);
      }
      return [...files].some(carriesList);
    });
    expect(carriers).toEqual([]);
  });
});
