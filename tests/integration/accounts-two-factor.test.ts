import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as profileAction, loader as profileLoader } from "~/routes/account/profile";
import { action as twoFactorAction, loader as twoFactorLoader } from "~/routes/account/two-factor";
import { user } from "~/server/platform/db/schema";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { makeAdmin, makeUser, totpCode } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, get, post, run } from "./accounts-helpers";

const signIn = async (email: string, password: string) => {
  const r = await run(authAction, post("/auth", { intent: "sign-in", js: "1", email, password, redirectTo: "/admin" }));
  return { ...r, cookie: cookieFrom(r.headers) };
};

describe("two-factor sign-in for admins", () => {
  const t = useTestDatabase();

  /** Signs the admin in, turns two-factor on from the account page, returns the setup key and backup codes. */
  async function enable(admin: { email: string; password: string }) {
    let { cookie } = await signIn(admin.email, admin.password);
    const wrong = await run(profileAction, post("/profile", { intent: "2fa-start", password: "not-it-at-all" }, { cookie }));
    expect(wrong.data.message).toBe("That password is not correct.");
    const start = await run(profileAction, post("/profile", { intent: "2fa-start", password: admin.password }, { cookie }));
    expect(start.status).toBe(200);
    expect(start.data.backupCodes).toHaveLength(10);
    expect(start.data.totpURI).toMatch(/^otpauth:\/\/totp\/Linen%20%26%20Loft:/);
    cookie = cookieFrom(start.headers, cookie);
    // Not on until a code from the app is confirmed.
    expect((await run(profileLoader, get("/profile", { cookie }))).data.twoFactor).toBe(false);
    const bad = await run(profileAction, post("/profile", { intent: "2fa-confirm", code: "000000" }, { cookie }));
    expect(bad.status).toBe(400);
    const ok = await run(profileAction, post("/profile", { intent: "2fa-confirm", code: await totpCode(start.data.secret) }, { cookie }));
    expect(ok.status).toBe(200);
    cookie = cookieFrom(ok.headers, cookie);
    expect((await run(profileLoader, get("/profile", { cookie }))).data.twoFactor).toBe(true);
    return { secret: start.data.secret as string, backupCodes: start.data.backupCodes as string[] };
  }

  it("once on, asks for a code at every sign-in, and only the code completes it", async () => {
    const admin = await makeAdmin(t.db);
    const { secret } = await enable(admin);

    for (let round = 0; round < 2; round++) {
      const first = await signIn(admin.email, admin.password);
      expect(first.status).toBe(302);
      expect(first.location).toBe("/auth/two-factor?redirectTo=%2Fadmin");
      expect(first.cookie).not.toContain("session_token");
      expect(await getCurrentUser(get("/", { cookie: first.cookie }))).toBeNull();
      expect((await run(twoFactorLoader, get(first.location!, { cookie: first.cookie }))).data).toEqual({ redirectTo: "/admin", method: "totp" });

      const wrong = await run(twoFactorAction, post("/auth/two-factor", { code: "123456", method: "totp", js: "1", redirectTo: "/admin" }, { cookie: first.cookie }));
      expect(wrong.status).toBe(400);
      expect(wrong.data.message).toBe("That code is not valid. Try again.");
      const ok = await run(
        twoFactorAction,
        post("/auth/two-factor", { code: await totpCode(secret), method: "totp", js: "1", redirectTo: "/admin" }, { cookie: first.cookie }),
      );
      expect(ok.data).toMatchObject({ ok: true, redirectTo: "/admin", toast: { title: "Welcome back!" } });
      const cookie = cookieFrom(ok.headers, first.cookie);
      expect(await getCurrentUser(get("/", { cookie }))).toMatchObject({ email: admin.email, role: "admin" });
    }
  });

  it("accepts each backup code once", async () => {
    const admin = await makeAdmin(t.db);
    const { backupCodes } = await enable(admin);
    const first = await signIn(admin.email, admin.password);
    const use = (cookie: string) =>
      run(twoFactorAction, post("/auth/two-factor", { code: backupCodes[0]!, method: "backup", js: "1", redirectTo: "/admin" }, { cookie }));
    const ok = await use(first.cookie);
    expect(ok.data.ok).toBe(true);
    const second = await signIn(admin.email, admin.password);
    const reused = await use(second.cookie);
    expect(reused.status).toBe(400);
  });

  it("without a pending sign-in the code page sends people back to sign in", async () => {
    const r = await run(twoFactorLoader, get("/auth/two-factor?redirectTo=%2Fadmin"));
    expect(r.location).toBe("/auth?redirectTo=%2Fadmin");
    const forged = await run(twoFactorAction, post("/auth/two-factor", { code: "123456", method: "totp" }, { cookie: "better-auth.two_factor=forged" }));
    expect(forged.status).toBe(401);
    expect(forged.data.message).toBe("Your sign-in has expired. Please sign in again.");
  });

  it("can be turned off with the password; customers are not offered it", async () => {
    const admin = await makeAdmin(t.db);
    const { secret } = await enable(admin);
    const first = await signIn(admin.email, admin.password);
    const ok = await run(twoFactorAction, post("/auth/two-factor", { code: await totpCode(secret), method: "totp", js: "1" }, { cookie: first.cookie }));
    const cookie = cookieFrom(ok.headers, first.cookie);
    const off = await run(profileAction, post("/profile", { intent: "2fa-disable", password: admin.password }, { cookie }));
    expect(off.status).toBe(200);
    const [row] = await t.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, admin.id));
    expect(row!.on).toBe(false);
    expect((await signIn(admin.email, admin.password)).status).toBe(200);

    const customer = await makeUser(t.db);
    const c = await signIn(customer.email, customer.password);
    const refused = await run(profileAction, post("/profile", { intent: "2fa-start", password: customer.password }, { cookie: c.cookie }));
    expect(refused.status).toBe(403);
  });
});
