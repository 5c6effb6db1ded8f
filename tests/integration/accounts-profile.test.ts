import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { action as profileAction, loader as profileLoader } from "~/routes/account/profile";
import { action as signOutAction, loader as signOutLoader } from "~/routes/account/sign-out";
import * as authApi from "~/routes/resources/auth-api";
import { profiles, session, user } from "~/server/platform/db/schema";
import { makeOrder } from "../factories/account-orders";
import { createSession, makeAdmin, makeUser, SESSION_COOKIE, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { cookieFrom, get, post, run } from "./accounts-helpers";

describe("the account page", () => {
  const t = useTestDatabase();

  const update = async (cookie: string, fields: Record<string, string>) =>
    run(profileAction, post("/profile", { intent: "update-profile", firstName: "", lastName: "", phone: "", ...fields }, { cookie }));

  it("sends a signed-out visitor to sign in and back", async () => {
    const r = await run(profileLoader, get("/profile"));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/auth?redirectTo=%2Fprofile");
    expect((await run(profileAction, post("/profile", { intent: "update-profile", firstName: "X" }))).location).toBe("/auth?redirectTo=%2Fprofile");
  });

  it("shows the profile and only the person's own orders, newest first", async () => {
    const me = await makeUser(t.db, { firstName: "Ann", lastName: "Lee", phone: "+1 555 0100" });
    const other = await makeUser(t.db);
    await makeOrder(t.db, { userId: me.id, orderNumber: "ORD-OLD", totalAmountCents: 1999, status: "completed", createdAt: new Date("2025-01-02T10:00:00Z") });
    await makeOrder(t.db, { userId: me.id, orderNumber: "ORD-NEW", totalAmountCents: 12050, status: "processing", createdAt: new Date("2025-03-04T10:00:00Z") });
    await makeOrder(t.db, { userId: other.id, orderNumber: "ORD-NOT-MINE" });
    await makeOrder(t.db, { userId: null, orderNumber: "ORD-GUEST" });

    const r = await run(profileLoader, get("/profile", { cookie: await sessionCookie(t.db, me.id) }));
    expect(r.data.profile).toEqual({ firstName: "Ann", lastName: "Lee", phone: "+1 555 0100", email: me.email });
    expect(r.data.profileFailed).toBe(false);
    expect(r.data.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual(["ORD-NEW", "ORD-OLD"]);
    expect(r.data.orders[0]).toMatchObject({ totalAmountCents: 12050, status: "processing", createdAt: "2025-03-04T10:00:00.000Z" });
    expect(r.data.twoFactor).toBeNull(); // customers are not offered two-factor
    const empty = await run(profileLoader, get("/profile", { cookie: await sessionCookie(t.db, other.id) }));
    expect(empty.data.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual(["ORD-NOT-MINE"]);
  });

  it("updates names and phone, trimmed, with emoji and right-to-left text kept", async () => {
    const me = await makeUser(t.db);
    const cookie = await sessionCookie(t.db, me.id);
    const r = await update(cookie, { firstName: "  Zoë 🌿 ", lastName: " مريم ", phone: " +44 (20) 7946-0958 " });
    expect(r.status).toBe(200);
    expect(r.data.toast).toEqual({ kind: "success", title: "Profile updated successfully" });
    const [row] = await t.db.select().from(profiles).where(eq(profiles.userId, me.id));
    expect(row).toMatchObject({ firstName: "Zoë 🌿", lastName: "مريم", phone: "+44 (20) 7946-0958" });
    const [account] = await t.db.select().from(user).where(eq(user.id, me.id));
    expect(account!.name).toBe("Zoë 🌿 مريم");
  });

  it("refuses 10 KB names and bad phones with 'Failed to update profile' and the reason", async () => {
    const me = await makeUser(t.db, { firstName: "Keep" });
    const cookie = await sessionCookie(t.db, me.id);
    const huge = await update(cookie, { firstName: "y".repeat(10_240) });
    expect(huge.status).toBe(400);
    expect(huge.data.toast.title).toBe("Failed to update profile");
    expect(huge.data.fieldErrors.firstName).toEqual(["First name must be at most 100 characters"]);
    const phone = await update(cookie, { phone: "<script>" });
    expect(phone.data.fieldErrors.phone).toEqual(["Phone may contain only digits, spaces and + ( ) - ."]);
    const [row] = await t.db.select().from(profiles).where(eq(profiles.userId, me.id));
    expect(row!.firstName).toBe("Keep");
  });

  it("can never change the email, the role or another person's profile", async () => {
    const me = await makeUser(t.db, { firstName: "Me" });
    const victim = await makeUser(t.db, { firstName: "Victim" });
    const cookie = await sessionCookie(t.db, me.id);
    const extras: Record<string, string>[] = [{ email: "new@example.test" }, { role: "admin" }, { userId: victim.id }, { user_id: victim.id }];
    for (const extra of extras) {
      const r = await update(cookie, { firstName: "Hacked", ...extra });
      expect(r.status).toBe(400);
      expect(r.data.toast.title).toBe("Failed to update profile");
      expect(r.data.message).toMatch(/cannot be changed here/);
    }
    const rows = await t.db.select().from(profiles);
    expect(rows.find((p) => p.userId === me.id)!.firstName).toBe("Me");
    expect(rows.find((p) => p.userId === victim.id)!.firstName).toBe("Victim");
    const [account] = await t.db.select().from(user).where(eq(user.id, me.id));
    expect(account).toMatchObject({ email: me.email, role: "customer" });
  });

  it("keeps better-auth's own account endpoints closed: no 10 KB name, email change or deletion around /profile", async () => {
    const me = await makeUser(t.db, { firstName: "Me" });
    const cookie = await sessionCookie(t.db, me.id);
    const call = (path: string, body: unknown) =>
      authApi.action({
        request: new Request(`http://localhost:3000/api/auth${path}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", origin: "http://localhost:3000", "x-shop-client-ip": "192.0.2.9" },
          body: JSON.stringify(body),
        }),
        params: {},
        context: {},
      } as never);
    for (const [path, body] of [
      ["/update-user", { name: "x".repeat(10_000), image: "javascript:alert(1)" }],
      ["/change-email", { newEmail: "taken@example.test" }],
      ["/delete-user", {}],
      ["/revoke-sessions", {}],
    ] as const) {
      const status = await call(path, body).then(
        (r) => (r as Response).status,
        (thrown) => (thrown as { init?: { status?: number } }).init?.status,
      );
      expect(status, path).toBe(404);
    }
    const [account] = await t.db.select().from(user).where(eq(user.id, me.id));
    expect(account).toMatchObject({ email: me.email, name: me.name });
    expect((await t.db.select().from(session).where(eq(session.userId, me.id))).length).toBe(1);
  });

  it("creates a missing profile row on first visit (accounts made by scripts)", async () => {
    const admin = await makeAdmin(t.db);
    await t.db.delete(profiles).where(eq(profiles.userId, admin.id));
    const r = await run(profileLoader, get("/profile", { cookie: await sessionCookie(t.db, admin.id) }));
    expect(r.data.profile).toEqual({ firstName: "", lastName: "", phone: "", email: admin.email });
    expect(r.data.twoFactor).toBe(false);
  });
});

describe("sessions", () => {
  const t = useTestDatabase();
  const whoAmI = (cookie: string) => getCurrentUser(new Request("http://localhost:3000/", { headers: { cookie } }));

  it("treat a tampered, expired or deleted-user cookie as signed out, never an error", async () => {
    const u = await makeUser(t.db);
    const { token, cookieValue } = await createSession(t.db, u.id);
    expect(await whoAmI(`${SESSION_COOKIE}=${cookieValue}`)).toMatchObject({ id: u.id });

    expect(await whoAmI(`${SESSION_COOKIE}=${token}.AAAAinvalidsignature%3D`)).toBeNull();
    expect(await whoAmI(`${SESSION_COOKIE}=garbage`)).toBeNull();
    expect(await whoAmI(`${SESSION_COOKIE}=${"%".repeat(50)}`)).toBeNull();
    const profile = await run(profileLoader, get("/profile", { cookie: `${SESSION_COOKIE}=${token}.forged` }));
    expect(profile.location).toBe("/auth?redirectTo=%2Fprofile");

    await t.db.update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.token, token));
    expect(await whoAmI(`${SESSION_COOKIE}=${cookieValue}`)).toBeNull();

    const gone = await makeUser(t.db);
    const goneCookie = await sessionCookie(t.db, gone.id);
    await t.db.delete(user).where(eq(user.id, gone.id));
    expect(await whoAmI(goneCookie)).toBeNull();
  });

  it("end at sign-out: the session row goes and the cookie is cleared", async () => {
    const u = await makeUser(t.db);
    const { token, cookieValue } = await createSession(t.db, u.id);
    const cookie = `${SESSION_COOKIE}=${cookieValue}`;
    const r = await run(signOutAction, post("/auth/sign-out", { js: "1" }, { cookie }));
    expect(r.status).toBe(200);
    expect(r.data.toast).toEqual({ kind: "success", title: "Signed out", description: "You've been signed out successfully." });
    expect(cookieFrom(r.headers, cookie)).not.toContain(SESSION_COOKIE);
    expect(await t.db.select().from(session).where(eq(session.token, token))).toEqual([]);
    expect(await whoAmI(cookie)).toBeNull();

    const noJs = await run(signOutAction, post("/auth/sign-out", {}, { cookie: await sessionCookie(t.db, u.id) }));
    expect(noJs.status).toBe(302);
    expect(noJs.location).toBe("/");
    // A visit (a link, an image) does not sign anyone out.
    expect((await run(signOutLoader, get("/auth/sign-out"))).location).toBe("/");
  });
});
