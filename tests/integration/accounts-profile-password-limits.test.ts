import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as profileAction } from "~/routes/account/profile";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { session, user } from "~/server/platform/db/schema";
import { makeAdmin, totpCode } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, freshIp, get, post, run } from "./accounts-helpers";

/** Signs the admin in and turns two-factor on from the account page; returns the session cookie. */
async function adminWithTwoFactor(db: Parameters<typeof makeAdmin>[0]) {
  const admin = await makeAdmin(db);
  const signedIn = await run(authAction, post("/auth", { intent: "sign-in", js: "1", email: admin.email, password: admin.password, redirectTo: "/" }));
  let cookie = cookieFrom(signedIn.headers);
  const start = await run(profileAction, post("/profile", { intent: "2fa-start", password: admin.password }, { cookie }));
  expect(start.status).toBe(200);
  cookie = cookieFrom(start.headers, cookie);
  const on = await run(profileAction, post("/profile", { intent: "2fa-confirm", code: await totpCode(start.data.secret) }, { cookie }));
  expect(on.status).toBe(200);
  cookie = cookieFrom(on.headers, cookie);
  return { admin, cookie };
}

/** The session token inside a signed `better-auth.session_token` cookie. */
function sessionToken(cookie: string) {
  const value = /better-auth\.session_token=([^;]+)/.exec(cookie)![1]!;
  return decodeURIComponent(value).split(".")[0]!;
}

describe("password checks on the account page", () => {
  const t = useTestDatabase();

  for (const intent of ["2fa-disable", "2fa-backup-codes"]) {
    it(`${intent}: the sign-in limits apply, and past them the session is signed out`, async () => {
      const { admin, cookie } = await adminWithTwoFactor(t.db);
      expect(await getCurrentUser(get("/", { cookie }))).toMatchObject({ email: admin.email });
      const ip = freshIp();
      for (let i = 0; i < 8; i++) {
        const wrong = await run(profileAction, post("/profile", { intent, password: `guess-${i}-wrong` }, { cookie, ip }));
        expect(wrong.status).toBe(400);
        expect(wrong.data.message).toBe("That password is not correct.");
      }
      const limited = await run(profileAction, post("/profile", { intent, password: "guess-9-wrong" }, { cookie, ip }));
      // Sent to sign in again, with the cookie cleared and the session row gone.
      expect(limited.status).toBe(302);
      expect(limited.location).toBe("/auth?redirectTo=%2Fprofile");
      expect(limited.headers.getSetCookie().some((c) => /better-auth\.session_token=;.*Max-Age=0/i.test(c))).toBe(true);
      const rows = await t.db.select().from(session).where(and(eq(session.userId, admin.id), eq(session.token, sessionToken(cookie))));
      expect(rows).toEqual([]);
      expect(await getCurrentUser(get("/", { cookie }))).toBeNull();
      // Nothing changed on the account.
      const [row] = await t.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, admin.id));
      expect(row!.on).toBe(true);
    });
  }

  it("counts the account page's password checks with the sign-ins from the same address", async () => {
    const { admin, cookie } = await adminWithTwoFactor(t.db);
    const ip = freshIp();
    for (let i = 0; i < 8; i++) {
      const r = await run(authAction, post("/auth", { intent: "sign-in", js: "1", email: admin.email, password: `guess-${i}-wrong`, redirectTo: "/" }, { ip }));
      expect(r.status).toBe(401);
    }
    const limited = await run(profileAction, post("/profile", { intent: "2fa-disable", password: admin.password }, { cookie, ip }));
    expect(limited.location).toBe("/auth?redirectTo=%2Fprofile");
    expect(await getCurrentUser(get("/", { cookie }))).toBeNull();
  });
});
