import { eq } from "drizzle-orm";
import { renderSVG } from "uqr";
import { describe, expect, it } from "vitest";
import { mailOutbox, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { makeOrder } from "../factories/account-orders";
import { asAdmin, asCustomer, makeAdmin, totpCode } from "../factories/users";
import { useShop } from "./harness";
import { formsHydrated, toast } from "./page-helpers";

describe("account extras in the browser", { timeout: 180_000 }, () => {
  // The machine is shared and can be slow: pages here get 30 s instead of the harness's 10 s.
  const shop = useShop({ pageTimeout: 30_000 });

  it("lists the customer's orders newest first with totals and status colours", async () => {
    const page = await asCustomer(shop);
    const day = (d: number) => new Date(Date.UTC(2025, 0, d, 12));
    await makeOrder(shop.db, { userId: page.user.id, orderNumber: "ORD-1001", status: "completed", totalAmountCents: 4599, createdAt: day(1) });
    await makeOrder(shop.db, { userId: page.user.id, orderNumber: "ORD-1002", status: "processing", totalAmountCents: 12050, createdAt: day(2) });
    // Pending: its payment page is still open (without one, the shop's sweep of interrupted
    // checkouts, every ten minutes, would cancel it as it does any real one).
    const awaiting = await makeOrder(shop.db, { userId: page.user.id, orderNumber: "ORD-1003", status: "pending", totalAmountCents: 100000, createdAt: day(3) });
    const sessionId = `test_cs_${awaiting.id}`;
    await shop.db.insert(testPaymentSessions).values({
      id: sessionId,
      orderId: awaiting.id,
      amountCents: awaiting.totalAmountCents,
      customerEmail: awaiting.email,
      successUrl: `${shop.baseUrl}/order-success?session_id=${sessionId}`,
      cancelUrl: `${shop.baseUrl}/checkout`,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await shop.db.update(orders).set({ paymentSessionId: sessionId }).where(eq(orders.id, awaiting.id));
    await makeOrder(shop.db, { userId: page.user.id, orderNumber: "ORD-1004", status: "cancelled", totalAmountCents: 5, createdAt: day(4) });
    await makeOrder(shop.db, { userId: page.user.id, orderNumber: "ORD-1005", status: "shipped", totalAmountCents: 2500, createdAt: day(5) });
    await page.goto("/profile?tab=orders");
    const items = page.getByRole("list", { name: "Your orders" }).getByRole("listitem");
    await items.first().waitFor();
    const texts = await items.allInnerTexts();
    expect(texts.map((t) => /ORD-\d+/.exec(t)![0])).toEqual(["ORD-1005", "ORD-1004", "ORD-1003", "ORD-1002", "ORD-1001"]);
    expect(texts[2]).toContain("$1,000.00");
    expect(texts[1]).toContain("$0.05");
    expect(texts[3]).toContain("$120.50");
    expect(texts[4]).toContain("January 1, 2025");
    // The theme colour whose value the status badge is painted with.
    const colour = (status: string) =>
      page.locator(`[data-status="${status}"]`).evaluate((badge) => {
        const painted = (value: string) => {
          const probe = document.createElement("i");
          probe.style.backgroundColor = value;
          document.body.append(probe);
          const rgb = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return rgb;
        };
        const background = getComputedStyle(badge).backgroundColor;
        return ["--success", "--info", "--warning", "--destructive", "--muted", "--secondary"].find((name) => painted(`var(${name})`) === background) ?? background;
      });
    expect(await colour("completed")).toBe("--success");
    expect(await colour("processing")).toBe("--info");
    expect(await colour("pending")).toBe("--warning");
    expect(await colour("cancelled")).toBe("--destructive");
    // Grey whatever the theme (the themeable secondary colour could be anything).
    expect(await colour("shipped")).toBe("--muted");
  });

  it("lets an admin turn on two-factor, then asks for the code at sign-in", async () => {
    const admin = await makeAdmin(shop.db);
    const page = await shop.newPage();
    await page.goto("/auth?redirectTo=%2Fprofile");
    await formsHydrated(page);
    const form = page.getByRole("tabpanel", { name: "Sign In" });
    await form.getByLabel("Email").fill(admin.email);
    await form.getByLabel("Password").fill(admin.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/profile");

    const card = page.getByRole("main");
    await card.getByRole("heading", { name: /Two-factor authentication/ }).waitFor();
    await card.getByLabel("Current password").fill(admin.password);
    await card.getByRole("button", { name: "Set up two-factor" }).click();
    const key = (await card.getByLabel("Setup key").innerText()).trim();
    // The QR code draws this account's otpauth:// link, the same one the fallback link opens.
    const uri = (await card.getByRole("link", { name: "open it in your authenticator app" }).getAttribute("href"))!;
    expect(new URL(uri).searchParams.get("secret")).toBe(key);
    const qr = card.getByRole("img", { name: "QR code for your authenticator app" });
    expect((await qr.boundingBox())!.width).toBeGreaterThan(150);
    const drawn = /<path[^>]* d="([^"]+)"/.exec(renderSVG(uri, { border: 2 }))![1];
    expect(await qr.locator("path").getAttribute("d")).toBe(drawn);
    expect(await card.getByRole("list", { name: "Backup codes" }).getByRole("listitem").count()).toBe(10);
    const backup = (await card.getByRole("list", { name: "Backup codes" }).getByRole("listitem").first().innerText()).trim();
    await card.getByLabel("Code from the app").fill(await totpCode(key));
    await card.getByRole("button", { name: "Turn on" }).click();
    await card.getByText("Two-factor authentication is on").waitFor();

    await formsHydrated(page);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL((u) => u.pathname === "/");

    // Next sign-in: the password alone is not enough.
    await page.goto("/auth?redirectTo=%2Fadmin");
    await formsHydrated(page);
    await form.getByLabel("Email").fill(admin.email);
    await form.getByLabel("Password").fill(admin.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((u) => u.pathname === "/auth/two-factor");
    expect((await page.request.get("/admin", { maxRedirects: 0 })).status()).toBe(302);
    await formsHydrated(page);
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await toast(page, "That code is not valid. Try again.").waitFor();
    await page.getByRole("link", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backup);
    await page.getByRole("button", { name: "Verify" }).click();
    await toast(page, "Welcome back!").waitFor();
    await page.waitForURL((u) => u.pathname === "/admin");
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  });

  it("shows outbox mail as text, never as markup, with only web links clickable", async () => {
    await shop.db.insert(mailOutbox).values({
      to: "x@example.test",
      from: "shop",
      subject: "<img src=x onerror=alert(1)> Hi",
      text: "<script>alert(1)</script>\nVisit https://example.test/ok?a=1&b=2 or javascript:alert(2)",
      html: "<b>ignored</b>",
    });
    const page = await asAdmin(shop);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto("/admin/outbox");
    await page.getByRole("link", { name: "<img src=x onerror=alert(1)> Hi" }).click();
    await page.getByRole("heading", { name: "<img src=x onerror=alert(1)> Hi" }).waitFor();
    await page.getByText("<script>alert(1)</script>").waitFor();
    const links = page.getByRole("main").locator("a[href^='http']");
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toContain("https://example.test/ok?a=1&b=2");
    expect(await page.locator("a[href^='javascript']").count()).toBe(0);
    expect(await page.getByText("ignored").count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
