import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { categories, products, variationTypes, variationValues } from "~/server/platform/db/schema";
import { makeCategory, makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, seeToast, slow, unique } from "./page-helpers";

// Long walks through several dialogs on a machine shared with other test runs.
vi.setConfig({ testTimeout: 180_000 });

const shop = useShop();
const adminPage = async () => slow(await asAdmin(shop));

describe("admin categories tab", () => {
  const category = async (name: string) => (await shop.db.select().from(categories).where(eq(categories.name, name)))[0];

  async function openCategories() {
    const page = await adminPage();
    await page.goto("/admin/products");
    await hydrated(page);
    await page.getByRole("tab", { name: "Categories" }).click();
    await page.waitForURL((u) => u.searchParams.get("tab") === "categories");
    await page.getByRole("heading", { name: /^Categories \(\d+\)$/ }).waitFor();
    return page;
  }

  it("lists the seeded categories with the count in the title and the specified columns", async () => {
    const page = await openCategories();
    const count = (await shop.db.select().from(categories)).length;
    await page.getByRole("heading", { name: `Categories (${count})` }).waitFor();
    for (const name of ["Imported", "Bedding", "Furniture", "Decor", "Accessories"]) {
      await page.getByRole("row").filter({ hasText: name }).first().waitFor();
    }
    const headers = (await page.getByRole("columnheader").allInnerTexts()).map((h) => h.trim());
    expect(headers).toEqual(["Name", "Description", "Status", "Created", "Actions"]);
    // 'MMM d, yyyy'
    expect(await page.getByRole("row").nth(1).innerText()).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });

  it("adds a category, requiring a name and refusing a duplicate", async () => {
    const page = await openCategories();
    const before = (await shop.db.select().from(categories)).length;
    await page.getByRole("button", { name: "Add Category" }).click();
    await seeToast(page, "Category name is required");
    await page.getByLabel("Name", { exact: true }).fill("   ");
    await page.getByRole("button", { name: "Add Category" }).click();
    await page.locator("#cat-name-error").getByText("Category name is required").waitFor();

    const name = unique("Lighting");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Description").fill("Lamps and shades");
    await page.getByRole("button", { name: "Add Category" }).click();
    await seeToast(page, "Category added successfully");
    await page.getByRole("heading", { name: `Categories (${before + 1})` }).waitFor();
    await page.getByRole("row").filter({ hasText: name }).getByText("Lamps and shades").waitFor();

    await page.getByLabel("Name", { exact: true }).fill(name.toUpperCase());
    await page.getByRole("button", { name: "Add Category" }).click();
    await seeToast(page, "Failed to add category");
    await page.getByText(`A category named "${name.toUpperCase()}" already exists`).first().waitFor();
    expect((await shop.db.select().from(categories)).length).toBe(before + 1);
  });

  it("renames inline on Enter and on blur, renaming its products too", async () => {
    const c = await makeCategory(shop.db, { name: unique("Throws") });
    const p = await makeProduct(shop.db, { category: c.name });
    const page = await openCategories();
    await page.getByRole("button", { name: `Rename category ${c.name}` }).click();
    const input = page.getByRole("textbox", { name: `New name for category ${c.name}` });
    const renamed = `${c.name} Blankets`;
    await input.fill(renamed);
    await input.press("Enter");
    await seeToast(page, "Category updated successfully");
    await page.getByRole("button", { name: `Rename category ${renamed}` }).waitFor();
    const [moved] = await shop.db.select().from(products).where(eq(products.id, p.id));
    expect(moved!.category).toBe(renamed);

    await page.getByRole("button", { name: `Rename category ${renamed}` }).click();
    await page.getByRole("textbox", { name: `New name for category ${renamed}` }).fill("  ");
    await page.getByRole("heading", { name: "Add Category" }).click();
    await seeToast(page, "Category name is required");
    expect(await category(renamed)).toBeDefined();

    await page.getByRole("button", { name: `Rename category ${renamed}` }).click();
    await page.getByRole("textbox", { name: `New name for category ${renamed}` }).fill(`${c.name} Quilts`);
    await page.getByRole("heading", { name: "Add Category" }).click();
    await page.getByRole("button", { name: `Rename category ${c.name} Quilts` }).waitFor();
    expect(await category(`${c.name} Quilts`)).toBeDefined();
  });

  it("activates and deactivates at once", async () => {
    const c = await makeCategory(shop.db, { name: unique("Seasonal") });
    const page = await openCategories();
    await page.getByRole("button", { name: `Deactivate ${c.name}` }).click();
    await page.getByRole("row").filter({ hasText: c.name }).getByText("Inactive").waitFor();
    await seeToast(page, "Category updated successfully");
    expect((await category(c.name))!.active).toBe(false);
    await page.getByRole("button", { name: `Activate ${c.name}` }).click();
    await page.getByRole("row").filter({ hasText: c.name }).getByText("Active", { exact: true }).waitFor();
  });

  it("deletes after a confirmation, and asks where to move the products of a category in use", async () => {
    const unused = await makeCategory(shop.db, { name: unique("Unused") });
    const used = await makeCategory(shop.db, { name: unique("Outdoor") });
    const p = await makeProduct(shop.db, { category: used.name });
    const page = await openCategories();

    await page.getByRole("button", { name: `Delete ${unused.name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Category" });
    await confirm.getByText(`Are you sure you want to delete "${unused.name}"? This action cannot be undone.`).waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await seeToast(page, "Category deleted successfully");
    expect(await category(unused.name)).toBeUndefined();

    await page.getByRole("button", { name: `Delete ${used.name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete Category" });
    await dialog.getByText(`1 product still uses "${used.name}". Choose a category to move it to, then delete.`).waitFor();
    expect(await category(used.name)).toBeDefined();
    await dialog.getByLabel("Move its products to").selectOption({ label: "Decor" });
    await dialog.getByRole("button", { name: "Move Products and Delete" }).click();
    // The first delete's toast may still be showing: wait for the row itself to go.
    await page.getByRole("button", { name: `Delete ${used.name}` }).waitFor({ state: "detached" });
    await dialog.waitFor({ state: "detached" });
    expect(await category(used.name)).toBeUndefined();
    expect((await shop.db.select().from(products).where(eq(products.id, p.id)))[0]!.category).toBe("Decor");
  });
});

describe("admin variations tab", () => {
  it("walks types and values with every specified empty state and message", async () => {
    const page = await adminPage();
    await page.goto("/admin/products?tab=variations");
    await hydrated(page);
    await page.getByText("No variation types found").waitFor();
    await page.getByRole("tab", { name: "Manage Values" }).click();
    await page.getByText("Create variation types first to manage their values").waitFor();
    await page.getByRole("tab", { name: "Variation Types" }).click();

    const typeInput = page.getByPlaceholder("e.g. Size, Color, Material");
    await page.getByRole("button", { name: "Add Type" }).click();
    await seeToast(page, "Please enter a variation type name");
    await typeInput.fill("Size");
    await page.getByRole("button", { name: "Add Type" }).click();
    await seeToast(page, "Variation type created successfully");
    await page.getByText("0 values").waitFor();
    await typeInput.fill("size");
    await page.getByRole("button", { name: "Add Type" }).click();
    await seeToast(page, "Failed to create variation type");
    await page.getByText('A variation type named "size" already exists').first().waitFor();

    await page.getByRole("tab", { name: "Manage Values" }).click();
    const sizes = page.getByRole("region", { name: "Size values" });
    await sizes.getByText("No values added yet").waitFor();
    await sizes.getByRole("button", { name: "Add Value" }).click();
    await seeToast(page, "Please enter a value");
    await sizes.getByLabel("New value for Size").fill("Large");
    await sizes.getByRole("button", { name: "Add Value" }).click();
    await seeToast(page, "Value added successfully");
    await sizes.getByRole("button", { name: "Rename Size value Large" }).click();
    await sizes.getByRole("textbox", { name: "New name for Size value Large" }).fill("");
    await sizes.getByRole("textbox", { name: "New name for Size value Large" }).press("Enter");
    await seeToast(page, "Value cannot be empty");
    await sizes.getByRole("button", { name: "Rename Size value Large" }).click();
    await sizes.getByRole("textbox", { name: "New name for Size value Large" }).fill("XL");
    await sizes.getByRole("textbox", { name: "New name for Size value Large" }).press("Enter");
    await seeToast(page, "Value updated successfully");
    await sizes.getByRole("button", { name: "Rename Size value XL" }).waitFor();
    await sizes.getByLabel("New value for Size").fill("Small");
    await sizes.getByRole("button", { name: "Add Value" }).click();
    await sizes.getByRole("button", { name: "Delete Small" }).click();
    await page.getByRole("alertdialog", { name: "Delete Value" }).getByRole("button", { name: "Delete" }).click();
    await seeToast(page, "Value deleted successfully");

    await page.getByRole("tab", { name: "Variation Types" }).click();
    await page.getByText("1 value", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Rename variation type Size" }).click();
    await page.getByRole("textbox", { name: "New name for variation type Size" }).fill(" ");
    await page.getByRole("textbox", { name: "New name for variation type Size" }).press("Enter");
    await seeToast(page, "Name cannot be empty");
    await page.getByRole("button", { name: "Rename variation type Size" }).click();
    await page.getByRole("textbox", { name: "New name for variation type Size" }).fill("Sizes");
    await page.getByRole("textbox", { name: "New name for variation type Size" }).press("Enter");
    await seeToast(page, "Variation type updated successfully");

    await page.getByRole("button", { name: "Delete Sizes" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Variation Type" });
    await confirm.getByText(/Its 1 value will be deleted too/).waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await seeToast(page, "Variation type deleted successfully");
    await page.getByText("No variation types found").waitFor();
    expect(await shop.db.select().from(variationTypes)).toHaveLength(0);
    expect(await shop.db.select().from(variationValues)).toHaveLength(0);
  });
});
