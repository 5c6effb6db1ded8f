import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { discountCodes } from "~/server/platform/db/schema";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, seeToast, slow } from "./page-helpers";

const shop = useShop();

describe("admin discount codes", () => {
  it("the owner creates WELCOME10 (10%, once per email), sees it active with 0 / ∞, deactivates it and sees Inactive", async () => {
    const admin = slow(await asAdmin(shop));
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));

    await open(admin, "/admin");
    await admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Discounts" }).click();
    await admin.getByRole("heading", { name: "Discount Codes" }).waitFor();
    expect(await admin.title()).toBe("Discount Codes — Admin");
    await admin.getByText("No discount codes yet.", { exact: false }).waitFor();

    await admin.getByRole("link", { name: "New Code" }).click();
    await admin.getByRole("heading", { name: "New Discount Code" }).waitFor();
    await hydrated(admin);

    // A bad form first: messages beside the fields, nothing saved.
    await admin.getByLabel("Code", { exact: true }).fill("WELCOME 10");
    await admin.getByLabel("Percentage off (%)").fill("150");
    await admin.getByRole("button", { name: "Create Code" }).click();
    await admin.getByText("Code may contain only letters, digits, - and _ (no spaces or other characters)").waitFor();
    await admin.getByText("Percentage must be at most 100").waitFor();
    expect(await admin.getByLabel("Code", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await shop.db.select().from(discountCodes)).toEqual([]);

    await admin.getByLabel("Code", { exact: true }).fill("WELCOME10");
    await admin.getByLabel("Percentage off (%)").fill("10");
    await admin.getByLabel("Once per customer email").check();
    await admin.getByRole("button", { name: "Create Code" }).click();
    await seeToast(admin, "Discount code WELCOME10 created successfully");
    await admin.waitForURL((u) => u.pathname === "/admin/discounts");

    const row = admin.getByRole("row").filter({ has: admin.getByRole("cell", { name: "WELCOME10", exact: true }) });
    await row.waitFor();
    const cells = (await row.getByRole("cell").allTextContents()).map((c) => c.trim());
    expect(cells[0]).toBe("WELCOME10");
    expect(cells[1]).toBe("10%Once per email");
    expect(cells[2]).toBe("0 / ∞");
    expect(await row.locator("[data-status]").textContent()).toBe("Active");
    expect(cells[4]).toBe("Always");
    const [stored] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, "WELCOME10"));
    expect(stored).toMatchObject({ kind: "percent", percentBasisPoints: 1000, oncePerEmail: true, active: true, usageLimit: null });

    await row.getByRole("button", { name: "Deactivate WELCOME10" }).click();
    await seeToast(admin, "Discount code WELCOME10 deactivated successfully");
    await expect.poll(() => row.locator("[data-status]").textContent()).toBe("Inactive");
    await row.getByRole("button", { name: "Activate WELCOME10" }).waitFor();
    expect((await shop.db.select().from(discountCodes).where(eq(discountCodes.id, stored!.id)))[0]!.active).toBe(false);

    // The search finds it by part of the code, in any case.
    await admin.getByLabel("Search codes").fill("come1");
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === "come1");
    await admin.getByText('1 code match "come1"').waitFor();
    expect(errors).toEqual([]);
  });
});
