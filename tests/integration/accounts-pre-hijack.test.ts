import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as confirmAction, loader as confirmLoader } from "~/routes/account/confirm-email";
import { loader as confirmedLoader } from "~/routes/account/email-confirmed";
import { loader as authApi } from "~/routes/resources/auth-api";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { user } from "~/server/platform/db/schema";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, get, linkIn, mailsTo, post, run } from "./accounts-helpers";

const signUp = (email: string, password: string) => run(authAction, post("/auth?tab=signup", { intent: "sign-up", js: "1", email, password }));
const signIn = (email: string, password: string) => run(authAction, post("/auth", { intent: "sign-in", js: "1", email, password, redirectTo: "/" }));

const confirmationLinks = async (db: Parameters<typeof mailsTo>[0], email: string) =>
  (await mailsTo(db, email)).filter((m) => m.subject === "Confirm your Linen & Loft account").map((m) => linkIn(m.text));

describe("an account signed up by someone who never proved the address", () => {
  const t = useTestDatabase();
  const verified = async (email: string) => (await t.db.select({ v: user.emailVerified }).from(user).where(eq(user.email, email)))[0]?.v;

  it("keeps none of the sign-up's password once the address's owner confirms it, and a GET alone changes nothing", async () => {
    const victim = "maya@example.test";
    expect((await signUp(victim, "attacker-chose-this-1")).status).toBe(200);
    const [link] = await confirmationLinks(t.db, victim);
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/confirm\?token=/);

    // Opening the link shows a form; nobody is signed in and the account is unchanged.
    const page = await run(confirmLoader, get(link!));
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    // A link mailed before this page existed (better-auth's own) only leads to the page.
    const token = new URL(link!).searchParams.get("token")!;
    const old = await run(authApi, get(`/api/auth/verify-email?token=${token}&callbackURL=%2Fauth%2Fconfirmed`));
    expect(old.status).toBe(302);
    expect(old.location).toBe(`/auth/confirm?token=${encodeURIComponent(token)}`);
    expect(old.headers.getSetCookie()).toEqual([]);
    expect(await verified(victim)).toBe(false);

    // The owner confirms, choosing the password, and is signed in.
    const done = await run(confirmAction, post("/auth/confirm", { token, password: "maya-linen-2026", confirmPassword: "maya-linen-2026" }));
    expect(done.status).toBe(302);
    expect(done.location).toBe("/auth/confirmed");
    const cookie = cookieFrom(done.headers);
    expect((await run(confirmedLoader, get("/auth/confirmed", { cookie }))).data).toMatchObject({ confirmed: true });
    expect(await verified(victim)).toBe(true);

    // The sign-up's password is gone; the owner's works.
    const attacker = await signIn(victim, "attacker-chose-this-1");
    expect(attacker.status).toBe(401);
    expect(attacker.data.message).toBe("Invalid email or password");
    expect((await signIn(victim, "maya-linen-2026")).status).toBe(200);
    expect((await getCurrentUser(get("/", { cookie })))?.email).toBe(victim);

    // The link is no password reset: once confirmed, it changes nothing.
    const replay = await run(confirmAction, post("/auth/confirm", { token, password: "attacker-again-22", confirmPassword: "attacker-again-22" }));
    expect(replay.status).toBe(409);
    expect(replay.data.message).toBe("This email address is already confirmed. Sign in with your password.");
    expect(replay.headers.getSetCookie()).toEqual([]);
    expect((await signIn(victim, "attacker-again-22")).status).toBe(401);
  });

  it("answers a second sign-up for an unconfirmed address as for a new one, and mails a confirmation link", async () => {
    const victim = "noor@example.test";
    const attacker = await signUp(victim, "attacker-chose-this-2");
    const owner = await signUp(victim, "noor-linen-2026");
    expect(owner.status).toBe(attacker.status);
    expect(owner.data).toEqual(attacker.data);
    expect(owner.headers.getSetCookie()).toEqual([]);

    // Both sign-ups sent a confirmation link (the owner cannot sign in with a password someone else chose).
    const links = await confirmationLinks(t.db, victim);
    expect(links).toHaveLength(2);
    const token = new URL(links[0]!).searchParams.get("token")!;
    const done = await run(confirmAction, post("/auth/confirm", { token, password: "noor-linen-2026", confirmPassword: "noor-linen-2026" }));
    expect(done.status).toBe(302);
    expect((await signIn(victim, "attacker-chose-this-2")).status).toBe(401);
    expect((await signIn(victim, "noor-linen-2026")).status).toBe(200);
  });

  it("refuses a weak or mismatched password on the confirmation page and confirms nothing", async () => {
    await signUp("lee@example.test", "lee-linen-2026-a");
    const [link] = await confirmationLinks(t.db, "lee@example.test");
    const token = new URL(link!).searchParams.get("token")!;
    const weak = await run(confirmAction, post("/auth/confirm", { token, password: "abc", confirmPassword: "abc" }));
    expect(weak.status).toBe(400);
    expect(weak.data.fieldErrors.password).toEqual(["Password must be at least 8 characters."]);
    const mismatch = await run(confirmAction, post("/auth/confirm", { token, password: "lee-linen-2026-b", confirmPassword: "lee-linen-2026-c" }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.fieldErrors.confirmPassword).toEqual(["The passwords do not match"]);
    expect(await verified("lee@example.test")).toBe(false);
    const bad = await run(confirmAction, post("/auth/confirm", { token: "not-a-token", password: "lee-linen-2026-b", confirmPassword: "lee-linen-2026-b" }));
    expect(bad.status).toBe(302);
    expect(bad.location).toBe("/auth/confirmed?error=INVALID_TOKEN");
  });
});
