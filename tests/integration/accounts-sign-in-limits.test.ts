import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as forgotAction } from "~/routes/account/forgot-password";
import { action as resetAction } from "~/routes/account/reset-password";
import { loader as authApi } from "~/routes/resources/auth-api";
import { makeUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { freshIp, get, linkIn, mailsTo, post, run } from "./accounts-helpers";

const signIn = (email: string, password: string, ip: string) =>
  run(authAction, post("/auth", { intent: "sign-in", js: "1", email, password, redirectTo: "/" }, { ip }));

/** The owner's way back in: asks for a reset, follows the mailed link and chooses a new password. */
async function resetPassword(db: Parameters<typeof mailsTo>[0], email: string, newPassword: string) {
  const asked = await run(forgotAction, post("/auth/forgot-password", { email }, { ip: freshIp() }));
  expect(asked.status).toBe(200);
  // The reset mail, not whatever was written last: the sign-in link mailed to the locked-out owner
  // is sent after its response, and under load it can be written after the reset mail.
  const mail = (await mailsTo(db, email)).find((m) => m.subject === "Reset your Linen & Loft password");
  expect(mail).toBeDefined();
  const hop = await run(authApi, get(linkIn(mail!.text)));
  const token = new URL(hop.location!, "http://localhost:3000").searchParams.get("token")!;
  const done = await run(resetAction, post("/auth/reset-password", { token, password: newPassword, confirmPassword: newPassword }, { ip: freshIp() }));
  expect(done.status).toBe(200);
}

// Every sign-in here hashes a password (scrypt, about 0.2 s of CPU on a quiet core, an unknown
// account's too), up to 43 in one test: beside the browser suite that took 30.1 s, past the 30 s
// default. What each test asserts is the same with more time.
describe("sign-in limits cannot lock the owner out", { timeout: 120_000 }, () => {
  const t = useTestDatabase();

  it("stops wrong passwords from one address, while the owner signs in from another right after", async () => {
    const owner = await makeUser(t.db);
    const attacker = freshIp();
    for (let i = 0; i < 8; i++) expect((await signIn(owner.email, `guess-${i}-wrong`, attacker)).status).toBe(401);
    const limited = await signIn(owner.email, "guess-9-wrong", attacker);
    expect(limited.status).toBe(429);
    expect(limited.data.message).toBe("Too many attempts, try again in 15 minutes");
    // The right password does not get through from the attacker's address either.
    expect((await signIn(owner.email, owner.password, attacker)).status).toBe(429);

    const ok = await signIn(owner.email, owner.password, freshIp());
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ ok: true, redirectTo: "/" });
    expect(ok.headers.getSetCookie().join("\n")).toContain("better-auth.session_token=");
  });

  it("still limits an attacker who rotates addresses, and the owner can reset the password and sign in", async () => {
    const owner = await makeUser(t.db);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await signIn(owner.email, `guess-${i}-wrong`, freshIp())).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expect((await signIn(owner.email, owner.password, freshIp())).status).toBe(429);

    // The reset flow has limits of its own: the sign-in limit does not block it, and a new
    // password lifts the sign-in limits of the account.
    await resetPassword(t.db, owner.email, "fresh-linen-77");
    expect((await signIn(owner.email, "fresh-linen-77", freshIp())).status).toBe(200);
  });

  it("counts an IPv6 attacker's whole /64 as one address, so rotating through it does not lock the owner out", async () => {
    const owner = await makeUser(t.db);
    const statuses: number[] = [];
    for (let i = 1; i <= 9; i++) statuses.push((await signIn(owner.email, `guess-${i}-wrong`, `2001:db8:77:1::${i.toString(16)}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    // Another address in the same /64, written out in full, is the same source.
    expect((await signIn(owner.email, owner.password, "2001:0db8:0077:0001:ffff:0:0:1")).status).toBe(429);

    const ok = await signIn(owner.email, owner.password, freshIp());
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ ok: true, redirectTo: "/" });
  });

  it("lets the owner ask for a reset mail after someone else asked for the account's reset until refused", async () => {
    const owner = await makeUser(t.db);
    const attacker = freshIp();
    const ask = (ip: string) => run(forgotAction, post("/auth/forgot-password", { email: owner.email }, { ip }));
    for (let i = 0; i < 5; i++) expect((await ask(attacker)).status).toBe(200);
    const refused = await ask(attacker);
    expect(refused.status).toBe(429);
    expect(refused.data.message).toBe("Too many attempts, try again in 60 minutes");
    const before = (await mailsTo(t.db, owner.email)).length;

    expect((await ask(freshIp())).status).toBe(200);
    const after = await mailsTo(t.db, owner.email);
    expect(after.length).toBe(before + 1);
    expect(after.every((m) => m.subject === "Reset your Linen & Loft password")).toBe(true);
  });

  it("caps the guesses a handful of addresses can make at one account", async () => {
    const owner = await makeUser(t.db);
    const addresses = [freshIp(), freshIp(), freshIp(), freshIp(), freshIp()];
    for (const ip of addresses) {
      for (let i = 0; i < 8; i++) expect((await signIn(owner.email, `guess-${i}-wrong`, ip)).status).toBe(401);
    }
    // 40 guesses in 15 minutes: the account is limited everywhere, until a reset.
    expect((await signIn(owner.email, "guess-41-wrong", freshIp())).status).toBe(429);
    await resetPassword(t.db, owner.email, "fresh-linen-77");
    expect((await signIn(owner.email, "fresh-linen-77", freshIp())).status).toBe(200);
  });
});
