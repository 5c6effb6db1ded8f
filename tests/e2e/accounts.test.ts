import { and, desc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { checkPasswordAttempt } from "~/server/people/auth/auth-guards.server";
import { mailOutbox, session } from "~/server/platform/db/schema";
import { asAdmin, asCustomer, createSession, makeUser, SESSION_COOKIE, signIn } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";
import { formsHydrated, toast } from "./page-helpers";

describe("accounts in the browser", { timeout: 180_000 }, () => {
  // The machine is shared and can be slow: pages here get 30 s instead of the harness's 10 s.
  const shop = useShop({ pageTimeout: 30_000 });

  async function latestMail(to: string, kind: string) {
    for (let i = 0; i < 50; i++) {
      const [m] = await shop.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)))
        .orderBy(desc(mailOutbox.createdAt))
        .limit(1);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${kind} mail to ${to}`);
  }

  /** The confirmation page: the password twice, then 'Confirm and sign in'. */
  async function confirmWithPassword(page: Page, password: string) {
    await page.getByRole("heading", { name: "Confirm your email address" }).waitFor();
    const main = page.getByRole("main");
    await main.getByLabel("Password", { exact: true }).fill(password);
    await main.getByLabel("Confirm password").fill(password);
    await main.getByRole("button", { name: "Confirm and sign in" }).click();
  }

  it("sign-up → confirmation link from the outbox → signed in → edit profile → empty orders → sign out", async () => {
    const page = await shop.newPage();
    await page.goto("/auth");
    await expect(page.title()).resolves.toContain("Linen & Loft");
    await page.getByRole("heading", { name: "Welcome" }).waitFor();
    await formsHydrated(page);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    const form = page.getByRole("tabpanel", { name: "Sign Up" });
    await form.getByLabel("First Name").fill("Maya");
    await form.getByLabel("Last Name").fill("Okafor");
    await form.getByLabel("Email").fill("maya@example.test");
    await form.getByLabel("Password").fill("linen-dreams-2024");
    await form.getByRole("button", { name: "Sign Up" }).click();
    await toast(page, "Check your email").waitFor();
    await expect(toast(page, "We've sent you a confirmation link to complete your registration.").isVisible()).resolves.toBe(true);

    // The admin reads the confirmation mail in the outbox; its link is clickable.
    const admin = await asAdmin(shop);
    await admin.goto("/admin/outbox");
    await admin.getByRole("heading", { name: "Outbox" }).waitFor();
    const row = admin.getByRole("row").filter({ hasText: "maya@example.test" }).first();
    await row.getByRole("link", { name: "Confirm your Linen & Loft account" }).click();
    await admin.getByRole("heading", { name: "Confirm your Linen & Loft account" }).waitFor();
    const href = await admin.getByRole("link", { name: /auth\/confirm\?token=/ }).getAttribute("href");
    expect(href).toMatch(/\/auth\/confirm\?token=/);

    // Maya opens the link from her mail: the page asks for her password, its button confirms.
    await page.goto(href!);
    await confirmWithPassword(page, "linen-dreams-2024");
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "My Account", exact: true }).click();
    await page.getByRole("heading", { name: "My Account", exact: true }).waitFor();
    const main = page.getByRole("main");
    await expect(main.getByLabel("First Name").inputValue()).resolves.toBe("Maya");
    await expect(main.getByLabel("Email", { exact: true }).inputValue()).resolves.toBe("maya@example.test");

    await formsHydrated(page);
    await page.getByLabel("First Name").fill("  Maya-Rose 🌷 ");
    await page.getByLabel("Phone").fill("+1 555 0199");
    await page.getByRole("button", { name: "Update Profile" }).click();
    await toast(page, "Profile updated successfully").waitFor();
    await page.reload();
    await expect(page.getByLabel("First Name").inputValue()).resolves.toBe("Maya-Rose 🌷");
    await expect(page.getByLabel("Phone").inputValue()).resolves.toBe("+1 555 0199");

    await page.getByRole("tab", { name: "Orders" }).click();
    const start = page.getByRole("link", { name: "Start Shopping" });
    await start.waitFor();
    expect(await start.getAttribute("href")).toBe("/shop");

    await formsHydrated(page);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await toast(page, "Signed out").waitFor();
    await expect(toast(page, "You've been signed out successfully.").isVisible()).resolves.toBe(true);
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    const res = await page.goto("/profile");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/auth?redirectTo=%2Fprofile");
    expect(res?.status()).toBe(200);
  });

  it("shows why a sign-in failed, the same for an unknown email, and lets the right password in", async () => {
    const u = await makeUser(shop.db, { email: "ravi@example.test" });
    const page = await shop.newPage();
    await page.goto("/auth?redirectTo=%2Fprofile");
    await formsHydrated(page);
    const form = page.getByRole("tabpanel", { name: "Sign In" });
    await form.getByLabel("Email").fill(u.email);
    await form.getByLabel("Password").fill("not-my-password");
    await form.getByRole("button", { name: "Sign In" }).click();
    await toast(page, "Sign in failed").waitFor();
    await expect(toast(page, "Invalid email or password").isVisible()).resolves.toBe(true);
    await expect(form.getByRole("alert").innerText()).resolves.toContain("Invalid email or password");

    await form.getByLabel("Email").fill("nobody@example.test");
    await form.getByLabel("Password").fill("not-my-password");
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(form.getByRole("alert").innerText()).resolves.toContain("Invalid email or password");

    await form.getByLabel("Email").fill(u.email);
    await form.getByLabel("Password").fill(u.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await toast(page, "Welcome back!").waitFor();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByRole("heading", { name: "My Account", exact: true }).waitFor();
  });

  it("tells an unconfirmed person to confirm, and sends the link again", async () => {
    const u = await makeUser(shop.db, { verified: false });
    const page = await shop.newPage();
    await page.goto("/auth");
    await formsHydrated(page);
    const form = page.getByRole("tabpanel", { name: "Sign In" });
    await form.getByLabel("Email").fill(u.email);
    await form.getByLabel("Password").fill(u.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(form.getByRole("alert").innerText()).resolves.toMatch(/confirm your email address first/i);
    await form.getByRole("button", { name: "Resend confirmation email" }).click();
    await toast(page, "Check your email").waitFor();
    const mail = await latestMail(u.email, "email-verification");
    await page.goto(/https?:\/\/\S+/.exec(mail.text)![0]);
    await confirmWithPassword(page, u.password);
    await page.getByRole("heading", { name: "Email confirmed" }).waitFor();
  });

  it("lets the owner in through a mailed link while others' guesses hold the account back", async () => {
    const owner = await makeUser(shop.db, { role: "admin" });
    // Nine one-guess sign-ins from nine addresses, counted as the sign-in form counts them.
    for (let i = 1; i <= 9; i++) await checkPasswordAttempt(shop.db, owner.email, `203.0.113.${i}`);

    const page = await shop.newPage();
    await page.goto("/auth");
    await formsHydrated(page);
    const form = page.getByRole("tabpanel", { name: "Sign In" });
    await form.getByLabel("Email").fill(owner.email);
    await form.getByLabel("Password").fill(owner.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(form.getByRole("alert").innerText()).resolves.toContain(
      "Too many sign-in attempts on this account. If the password you entered is right, we have emailed you a link to sign in.",
    );
    expect(new URL(page.url()).pathname).toBe("/auth");

    const mail = await latestMail(owner.email, "sign-in-link");
    await page.goto(/https?:\/\/\S+/.exec(mail.text)![0]);
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    await formsHydrated(page);
    await page.getByRole("main").getByRole("button", { name: "Sign in" }).click();
    await toast(page, "Welcome back!").waitFor();
    await page.waitForURL((u) => u.pathname === "/");
    await page.goto("/admin");
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  });

  it("resets a forgotten password end to end", async () => {
    const u = await makeUser(shop.db);
    const page = await shop.newPage();
    await page.goto("/auth");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { name: "Forgot password?" }).waitFor();
    await page.getByRole("main").getByLabel("Email", { exact: true }).fill(u.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("status").filter({ hasText: "Check your email" }).waitFor();

    const mail = await latestMail(u.email, "password-reset");
    await page.goto(/https?:\/\/\S+/.exec(mail.text)![0]);
    await page.waitForURL((url) => url.pathname === "/auth/reset-password" && url.searchParams.has("token"));
    await page.getByLabel("New password", { exact: true }).fill("brand-new-linen-5");
    await page.getByLabel("Confirm new password").fill("brand-new-linen-5");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Your password has been changed").waitFor();

    // The link was single-use.
    await page.goto(/https?:\/\/\S+/.exec(mail.text)![0]);
    await page.getByText("This reset link is invalid or has expired").waitFor();

    await signIn(page, u.email, "brand-new-linen-5");
    await page.getByRole("banner").getByRole("link", { name: "My account" }).waitFor();
  });

  it("gives a customer the 403 page at /admin and an admin the dashboard; the Admin link is for admins only", async () => {
    const customer = await asCustomer(shop);
    const res = await customer.goto("/admin");
    expect(res?.status()).toBe(403);
    await customer.getByText("You don't have access to this page").waitFor();
    await customer.goto("/");
    await customer.getByRole("banner").getByRole("link", { name: "My account" }).waitFor();
    expect(await customer.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);

    const anonymous = await shop.newPage();
    await anonymous.goto("/admin/outbox");
    expect(new URL(anonymous.url()).search).toBe("?redirectTo=%2Fadmin%2Foutbox");

    const admin = await asAdmin(shop);
    const ok = await admin.goto("/admin");
    expect(ok?.status()).toBe(200);
    await admin.getByRole("heading", { name: "Dashboard" }).waitFor();
    await admin.goto("/");
    await admin.getByRole("banner").getByRole("link", { name: "Admin", exact: true }).first().waitFor();
  });

  it("keeps a session in use alive (renewed cookie), refuses cross-site posts, and treats a bad cookie as signed out", async () => {
    const u = await makeUser(shop.db);
    const { token, cookieValue } = await createSession(shop.db, u.id, E2E_AUTH_SECRET);
    // Signed in two days ago: the next page view extends it and renews the cookie.
    await shop.db.update(session).set({ expiresAt: new Date(Date.now() + 5 * 24 * 3600 * 1000) }).where(eq(session.token, token));
    const res = await fetch(`${shop.baseUrl}/`, { headers: { cookie: `${SESSION_COOKIE}=${cookieValue}` } });
    expect(res.status).toBe(200);
    const renewed = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(renewed).toMatch(/Max-Age=604800/);
    expect(renewed).toMatch(/HttpOnly/i);
    expect(renewed).toMatch(/SameSite=Lax/i);
    const [row] = await shop.db.select().from(session).where(eq(session.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600 * 1000);

    // A form posted from another site is refused before it reaches the action (CSRF).
    const forged = await fetch(`${shop.baseUrl}/auth`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "sign-in", email: u.email, password: u.password }),
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);

    for (const bad of [`${token}.forged-signature`, "garbage", "%E0%A4%A"]) {
      const home = await fetch(`${shop.baseUrl}/`, { headers: { cookie: `${SESSION_COOKIE}=${bad}` } });
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('aria-label="Sign in"');
      const profile = await fetch(`${shop.baseUrl}/profile`, { headers: { cookie: `${SESSION_COOKIE}=${bad}` }, redirect: "manual" });
      expect(profile.status).toBe(302);
      expect(profile.headers.get("location")).toBe("/auth?redirectTo=%2Fprofile");
    }
  });

  it("works without JavaScript: tabs, sign-up, sign-in, profile update and sign-out are plain forms", async () => {
    const first = await shop.newPage();
    const context = await first.context().browser()!.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto("/auth");
      await page.getByRole("tab", { name: "Sign Up" }).click();
      await page.waitForURL((u) => u.searchParams.get("tab") === "signup");
      const up = page.getByRole("tabpanel", { name: "Sign Up" });
      await up.getByLabel("Email").fill("nojs@example.test");
      await up.getByLabel("Password").fill("short");
      await up.getByRole("button", { name: "Sign Up" }).click();
      await expect(page.getByRole("tabpanel", { name: "Sign Up" }).getByRole("alert").innerText()).resolves.toContain("Password must be at least 8 characters.");

      const u = await makeUser(shop.db);
      await page.goto("/auth?redirectTo=%2Fprofile");
      const form = page.getByRole("tabpanel", { name: "Sign In" });
      await form.getByLabel("Email").fill(u.email);
      await form.getByLabel("Password").fill(u.password);
      await form.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL((url) => url.pathname === "/profile");
      await page.getByRole("main").getByLabel("Last Name").fill("Without-Script");
      await page.getByRole("button", { name: "Update Profile" }).click();
      await page.getByRole("status").filter({ hasText: "Profile updated successfully" }).waitFor();
      await page.getByRole("button", { name: "Sign Out" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    } finally {
      await context.close();
    }
  });
});
