import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as authAction, loader as authLoader } from "~/routes/account/auth";
import { action as confirmAction } from "~/routes/account/confirm-email";
import { loader as confirmedLoader } from "~/routes/account/email-confirmed";
import { loader as rootLoader } from "~/root";
import { profiles, user } from "~/server/platform/db/schema";
import { makeUser, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, freshIp, get, linkIn, mailsTo, post, run } from "./accounts-helpers";

const signUp = (fields: Record<string, string>, ip?: string) => run(authAction, post("/auth?tab=signup", { intent: "sign-up", js: "1", ...fields }, { ip }));
const signIn = (fields: Record<string, string>, opts: { ip?: string; js?: boolean } = {}) =>
  run(authAction, post("/auth", { intent: "sign-in", js: opts.js === false ? "" : "1", redirectTo: "/", ...fields }, { ip: opts.ip }));

describe("sign-up, confirmation and sign-in", () => {
  const t = useTestDatabase();

  it("signs up, mails a link that confirms the address and signs the person in", async () => {
    const r = await signUp({ email: "  Ann@Example.test ", password: "linen-sheets-42", firstName: "  Ann ", lastName: "Lee" });
    expect(r.status).toBe(200);
    expect(r.data.toast).toEqual({ kind: "success", title: "Check your email", description: "We've sent you a confirmation link to complete your registration." });
    expect(r.headers.getSetCookie()).toEqual([]); // not signed in before confirming

    const [account] = await t.db.select().from(user).where(eq(user.email, "ann@example.test"));
    expect(account).toMatchObject({ emailVerified: false, role: "customer", name: "Ann Lee" });
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.userId, account!.id));
    expect(profile).toMatchObject({ firstName: "Ann", lastName: "Lee", email: "ann@example.test" });

    // Before confirming: told to confirm (with the right password only), offered the mail again.
    const early = await signIn({ email: "ann@example.test", password: "linen-sheets-42" });
    expect(early.status).toBe(403);
    expect(early.data.toast.title).toBe("Sign in failed");
    expect(early.data.message).toMatch(/confirm your email/i);
    expect(early.data.unconfirmedEmail).toBe("ann@example.test");
    const resend = await run(authAction, post("/auth", { intent: "resend-confirmation", email: "ann@example.test" }));
    expect(resend.status).toBe(200);

    const mails = await mailsTo(t.db, "ann@example.test");
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your Linen & Loft account", "Confirm your Linen & Loft account"]);
    const link = linkIn(mails[1]!.text);
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/confirm\?token=/);

    // The link opens a form; its POST confirms, keeps the password typed there and signs in.
    const token = new URL(link).searchParams.get("token")!;
    const landing = await run(confirmAction, post("/auth/confirm", { token, password: "linen-sheets-42", confirmPassword: "linen-sheets-42" }));
    expect(landing.status).toBe(302);
    expect(landing.location).toBe("/auth/confirmed");
    const cookie = cookieFrom(landing.headers);
    expect(cookie).toContain("better-auth.session_token=");
    expect(landing.headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    expect(landing.headers.getSetCookie()[0]).toMatch(/SameSite=Lax/i);

    const page = await run(confirmedLoader, get("/auth/confirmed", { cookie }));
    expect(page.data).toEqual({ confirmed: true, name: "Ann Lee" });
    const root = await run(rootLoader, get("/", { cookie }));
    // Signed in as a customer; the page's data names no one (it is shared by all customers).
    expect(root.data.viewer).toEqual({ role: "customer" });
    expect(JSON.stringify(root.data)).not.toMatch(/ann@example\.test|Ann Lee/);

    // Confirmed: signing in works and forwards the session cookie.
    const ok = await signIn({ email: "ann@example.test", password: "linen-sheets-42" });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ ok: true, redirectTo: "/", toast: { title: "Welcome back!", description: "You've been signed in successfully." } });
    expect(ok.headers.getSetCookie().join()).toContain("better-auth.session_token=");
  });

  it("without JavaScript a sign-in answers with a redirect carrying the cookie", async () => {
    const u = await makeUser(t.db);
    const r = await run(authAction, post("/auth", { intent: "sign-in", email: u.email, password: u.password, redirectTo: "/profile" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/profile");
    expect(r.headers.getSetCookie().join()).toContain("better-auth.session_token=");
  });

  it("never redirects off the site after signing in", async () => {
    const u = await makeUser(t.db);
    for (const evil of ["https://evil.test/", "//evil.test", "/\\evil.test", "javascript:alert(1)"]) {
      const r = await run(authAction, post("/auth", { intent: "sign-in", email: u.email, password: u.password, redirectTo: evil }));
      expect(r.location).toBe("/");
    }
  });

  it("sends a signed-in visitor of /auth on to / or to where they came from", async () => {
    const u = await makeUser(t.db);
    expect((await run(authLoader, await requestAs(t.db, u, "/auth"))).location).toBe("/");
    expect((await run(authLoader, await requestAs(t.db, u, "/auth?redirectTo=%2Fprofile"))).location).toBe("/profile");
    expect((await run(authLoader, await requestAs(t.db, null, "/auth"))).data).toEqual({ redirectTo: "/" });
  });

  it("answers an unconfirmed link with a page that offers a new one", async () => {
    const r = await run(confirmAction, post("/auth/confirm", { token: "not-a-token", password: "linen-sheets-42", confirmPassword: "linen-sheets-42" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/auth/confirmed?error=INVALID_TOKEN");
    expect((await run(confirmedLoader, get(r.location!))).data).toEqual({ confirmed: false, expired: false });
  });

  it("gives the same answer for an address that already has an account, and mails its owner", async () => {
    const existing = await makeUser(t.db, { email: "taken@example.test" });
    const r = await signUp({ email: "taken@example.test", password: "another-pass-99" });
    expect(r.status).toBe(200);
    expect(r.data.toast.title).toBe("Check your email");
    const mails = await mailsTo(t.db, existing.email);
    expect(mails[0]!.subject).toBe("You already have a Linen & Loft account");
    // The existing account is untouched: its password still works.
    expect((await signIn({ email: existing.email, password: existing.password })).status).toBe(200);
  });

  it("enforces the password rules on the server and says why", async () => {
    const short = await signUp({ email: "short@example.test", password: "abc" });
    expect(short.status).toBe(400);
    expect(short.data.toast.title).toBe("Sign up failed");
    expect(short.data.fieldErrors.password).toEqual(["Password must be at least 8 characters."]);
    const common = await signUp({ email: "common@example.test", password: "password123" });
    expect(common.data.message).toBe("Password is too easy to guess; choose a less common one.");
    const missing = await signUp({ email: "", password: "" });
    expect(missing.status).toBe(400);
    expect(missing.data.fieldErrors.email).toEqual(["Email is required"]);
    expect(await t.db.select().from(user).where(eq(user.email, "short@example.test"))).toEqual([]);
  });

  it("cannot be talked into making an admin", async () => {
    await signUp({ email: "sneaky@example.test", password: "linen-sheets-42", role: "admin", emailVerified: "true" });
    const [row] = await t.db.select().from(user).where(eq(user.email, "sneaky@example.test"));
    expect(row).toMatchObject({ role: "customer", emailVerified: false });
  });

  it("handles 10 KB names with a clear refusal, and keeps emoji and right-to-left names", async () => {
    const huge = await signUp({ email: "huge@example.test", password: "linen-sheets-42", firstName: "x".repeat(10_240) });
    expect(huge.status).toBe(400);
    expect(huge.data.fieldErrors.firstName).toEqual(["First name must be at most 100 characters"]);
    const ok = await signUp({ email: "rtl@example.test", password: "linen-sheets-42", firstName: " 🌙 Layla ", lastName: "  שָׁלוֹם " });
    expect(ok.status).toBe(200);
    const [row] = await t.db.select().from(profiles).where(eq(profiles.email, "rtl@example.test"));
    expect(row).toMatchObject({ firstName: "🌙 Layla", lastName: "שָׁלוֹם".normalize("NFC") });
  });

  it("gives one message for a wrong password and an unknown email, in about the same time", async () => {
    const u = await makeUser(t.db);
    const wrong = await signIn({ email: u.email, password: "not-the-password" });
    const unknown = await signIn({ email: "nobody-here@example.test", password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data.message).toBe("Invalid email or password");
    expect(unknown.data).toEqual(wrong.data);

    const time = async (email: string) => {
      const start = performance.now();
      await signIn({ email, password: "not-the-password" });
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(u.email));
      unknownTimes.push(await time(`nobody-${i}@example.test`));
    }
    // Both paths hash a password (scrypt, tens of ms); a lookup-only path would be several times faster.
    const ratio = median(known) / median(unknownTimes);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it("limits sign-in attempts per email, whatever the address they come from", async () => {
    const u = await makeUser(t.db);
    let last;
    for (let i = 0; i < 9; i++) last = await signIn({ email: u.email, password: "wrong-password-1" }, { ip: freshIp() });
    expect(last!.status).toBe(429);
    expect(last!.data.toast.title).toBe("Sign in failed");
    expect(last!.data.message).toBe("Too many sign-in attempts on this account. If the password you entered is right, we have emailed you a link to sign in.");
    // Even the right password does not sign in by itself (the owner's way in is the mailed link).
    const right = await signIn({ email: u.email, password: u.password }, { ip: freshIp() });
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie().join()).not.toContain("session_token");
  });

  it("limits sign-in and sign-up attempts per client address", async () => {
    const ip = freshIp();
    const results = [];
    for (let i = 0; i < 21; i++) results.push((await signIn({ email: `probe-${i}@example.test`, password: "whatever-pass" }, { ip })).status);
    expect(results.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(results[20]).toBe(429);

    const upIp = freshIp();
    const ups = [];
    for (let i = 0; i < 11; i++) ups.push((await signUp({ email: `new-${i}@example.test`, password: "linen-sheets-42" }, upIp)).status);
    expect(ups.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(ups[10]).toBe(429);
    // 31 password hashes one after another (an unknown address is hashed too, so it takes as
    // long as a known one): 30.2 s on two cores with the browser suite running beside it, past
    // the default limit. What is checked is the count at which the limit answers, never a time.
  }, 120_000);
});
