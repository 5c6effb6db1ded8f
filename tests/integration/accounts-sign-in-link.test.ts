import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as linkAction, loader as linkLoader } from "~/routes/account/sign-in-link";
import { action as profileAction } from "~/routes/account/profile";
import { action as twoFactorAction } from "~/routes/account/two-factor";
import { loader as authApi } from "~/routes/resources/auth-api";
import { clearPasswordLimits } from "~/server/people/auth/auth-guards.server";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { makeAdmin, makeUser, requestAs, totpCode } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, freshIp, get, linkIn, mailsTo, post, run } from "./accounts-helpers";

const HELD_BACK = "Too many sign-in attempts on this account. If the password you entered is right, we have emailed you a link to sign in.";

const signIn = (email: string, password: string, ip = freshIp()) =>
  run(authAction, post("/auth", { intent: "sign-in", js: "1", email, password, redirectTo: "/admin" }, { ip }));

/** Nine one-guess sign-ins from nine addresses: the account's own limits now hold every sign-in back. */
async function lockFromNineAddresses(email: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 9; i++) statuses.push((await signIn(email, `guess-${i}-wrong`)).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
}

const signInLinkMails = async (db: Parameters<typeof mailsTo>[0], email: string) =>
  (await mailsTo(db, email)).filter((m) => m.subject === "Your Linen & Loft sign-in link");

describe("others' guesses never lock the owner out", () => {
  const t = useTestDatabase();

  it("mails the owner who types the right password a one-time link that signs in, while guesses stay held back", async () => {
    const owner = await makeAdmin(t.db);
    await lockFromNineAddresses(owner.email);

    // A wrong password is held back, and mails nothing.
    const wrong = await signIn(owner.email, "still-guessing-1");
    expect(wrong.status).toBe(429);
    expect(wrong.data.message).toBe(HELD_BACK);
    expect(await signInLinkMails(t.db, owner.email)).toEqual([]);

    // The right one does not sign in either, with the same answer: the link goes to the mailbox.
    const right = await signIn(owner.email, owner.password);
    expect(right.status).toBe(429);
    expect(right.data).toEqual(wrong.data);
    expect(right.headers.getSetCookie().join()).not.toContain("session_token");
    const [mail] = await signInLinkMails(t.db, owner.email);
    const link = linkIn(mail!.text);
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/sign-in-link\?token=/);

    // Opening the link (a GET, as a mail scanner would) signs no one in and spends nothing.
    const page = await run(linkLoader, get(link));
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    const token = new URL(link).searchParams.get("token")!;
    // better-auth's own GET that would sign in with the token is closed.
    const direct = await run(authApi, get(`/api/auth/magic-link/verify?token=${token}&callbackURL=%2F`));
    expect(direct.status).toBe(404);
    expect(direct.headers.getSetCookie()).toEqual([]);

    // The page's button signs the owner in.
    const done = await run(linkAction, post("/auth/sign-in-link", { token, js: "1" }));
    expect(done.data).toMatchObject({ ok: true, redirectTo: "/", toast: { title: "Welcome back!" } });
    const cookie = cookieFrom(done.headers);
    expect((await getCurrentUser(get("/", { cookie })))?.email).toBe(owner.email);

    // Once only.
    const again = await run(linkAction, post("/auth/sign-in-link", { token, js: "1" }));
    expect(again.status).toBe(400);
    expect(again.data.message).toBe("This sign-in link is invalid or has expired. Sign in again to get a new one.");
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("lets an account with two-factor in with the right password and a code, and nothing less", async () => {
    const owner = await makeAdmin(t.db);
    const cookie = (await requestAs(t.db, owner, "/profile")).headers.get("cookie")!;
    const start = await run(profileAction, post("/profile", { intent: "2fa-start", password: owner.password }, { cookie }));
    const secret = start.data.secret as string;
    const on = await run(profileAction, post("/profile", { intent: "2fa-confirm", code: await totpCode(secret) }, { cookie: cookieFrom(start.headers, cookie) }));
    expect(on.status).toBe(200);
    // Turning two-factor on asked for the password, which counts as a sign-in guess: start afresh.
    await clearPasswordLimits(t.db, owner.email);

    await lockFromNineAddresses(owner.email);
    const wrong = await signIn(owner.email, "still-guessing-2");
    expect(wrong.status).toBe(429);
    expect(wrong.data.message).toBe(HELD_BACK);

    const first = await signIn(owner.email, owner.password);
    expect(first.status).toBe(302);
    expect(first.location).toBe("/auth/two-factor?redirectTo=%2Fadmin");
    const pending = cookieFrom(first.headers);
    expect(pending).not.toContain("session_token");
    const ok = await run(twoFactorAction, post("/auth/two-factor", { code: await totpCode(secret), method: "totp", js: "1", redirectTo: "/admin" }, { cookie: pending }));
    expect(ok.data).toMatchObject({ ok: true, redirectTo: "/admin" });
    expect((await getCurrentUser(get("/", { cookie: cookieFrom(ok.headers, pending) })))?.email).toBe(owner.email);
    // No link is mailed for an account whose second factor stands in for it.
    expect(await signInLinkMails(t.db, owner.email)).toEqual([]);
  });

  it("mails at most three links in a quarter of an hour, however often the right password is typed", async () => {
    const owner = await makeUser(t.db);
    await lockFromNineAddresses(owner.email);
    for (let i = 0; i < 5; i++) expect((await signIn(owner.email, owner.password)).data.message).toBe(HELD_BACK);
    expect(await signInLinkMails(t.db, owner.email)).toHaveLength(3);
  });

  it("keeps an address that guessed at the account held back, whatever password it sends", async () => {
    const owner = await makeUser(t.db);
    const attacker = freshIp();
    for (let i = 0; i < 8; i++) await signIn(owner.email, `guess-${i}-wrong`, attacker);
    const r = await signIn(owner.email, owner.password, attacker);
    expect(r.status).toBe(429);
    expect(r.data.message).toBe("Too many attempts, try again in 15 minutes");
    expect(await signInLinkMails(t.db, owner.email)).toEqual([]);
  });
});
