import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as forgotAction } from "~/routes/account/forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/account/reset-password";
import { loader as authApi } from "~/routes/resources/auth-api";
import { verification } from "~/server/platform/db/schema";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { makeUser, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { freshIp, get, linkIn, mailsTo, post, run } from "./accounts-helpers";

const forgot = (email: string, ip?: string) => run(forgotAction, post("/auth/forgot-password", { email }, { ip }));
const signIn = (email: string, password: string) => run(authAction, post("/auth", { intent: "sign-in", js: "1", email, password }));

/** Asks for a reset and follows the mailed link the way a browser does, to the form's token. */
async function tokenFor(db: Parameters<typeof mailsTo>[0], email: string) {
  await forgot(email);
  const [mail] = await mailsTo(db, email);
  expect(mail!.subject).toBe("Reset your Linen & Loft password");
  const hop = await run(authApi, get(linkIn(mail!.text)));
  expect(hop.status).toBe(302);
  const landing = new URL(hop.location!, "http://localhost:3000");
  expect(landing.pathname).toBe("/auth/reset-password");
  return { token: landing.searchParams.get("token")!, landing: landing.pathname + landing.search };
}

describe("password reset", () => {
  const t = useTestDatabase();

  it("mails a one-time link; the new password works, the old does not, every session ends", async () => {
    const u = await makeUser(t.db);
    const elsewhere = await requestAs(t.db, u, "/profile"); // a session on another device
    expect(await getCurrentUser(elsewhere)).not.toBeNull();

    const { token, landing } = await tokenFor(t.db, u.email);
    expect((await run(resetLoader, get(landing))).data).toEqual({ token });

    const mismatch = await run(resetAction, post("/auth/reset-password", { token, password: "fresh-linen-77", confirmPassword: "fresh-linen-78" }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.fieldErrors.confirmPassword).toEqual(["The passwords do not match"]);
    const weak = await run(resetAction, post("/auth/reset-password", { token, password: "short", confirmPassword: "short" }));
    expect(weak.data.fieldErrors.password).toEqual(["Password must be at least 8 characters."]);

    const done = await run(resetAction, post("/auth/reset-password", { token, password: "fresh-linen-77", confirmPassword: "fresh-linen-77" }));
    expect(done.status).toBe(200);
    expect(done.data.ok).toBe(true);

    expect(await getCurrentUser(elsewhere)).toBeNull();
    expect((await signIn(u.email, u.password)).status).toBe(401);
    expect((await signIn(u.email, "fresh-linen-77")).status).toBe(200);
    expect((await mailsTo(t.db, u.email))[0]!.subject).toBe("Your Linen & Loft password was changed");

    // The link worked once.
    const again = await run(resetAction, post("/auth/reset-password", { token, password: "other-linen-88", confirmPassword: "other-linen-88" }));
    expect(again.status).toBe(400);
    expect(again.data.message).toBe("This reset link is invalid or has expired. Ask for a new one.");
  });

  it("refuses an expired link, both when opened and when submitted", async () => {
    const u = await makeUser(t.db);
    const { token } = await tokenFor(t.db, u.email);
    await t.db.update(verification).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verification.identifier, `reset-password:${token}`));
    const [mail] = await mailsTo(t.db, u.email);
    const hop = await run(authApi, get(linkIn(mail!.text)));
    expect(hop.location).toContain("error=INVALID_TOKEN");
    expect((await run(resetLoader, get(hop.location!))).data).toEqual({ token: null });
    const r = await run(resetAction, post("/auth/reset-password", { token, password: "fresh-linen-77", confirmPassword: "fresh-linen-77" }));
    expect(r.status).toBe(400);
    expect((await signIn(u.email, u.password)).status).toBe(200);
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const u = await makeUser(t.db);
    const known = await forgot(u.email);
    const unknown = await forgot("no-account@example.test");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.data.toast).toEqual(known.data.toast);
    expect(await mailsTo(t.db, "no-account@example.test")).toEqual([]);
    expect((await forgot("not an email")).status).toBe(400);
  });

  it("limits reset requests per address", async () => {
    const u = await makeUser(t.db);
    const statuses = [];
    const asker = freshIp();
    for (let i = 0; i < 6; i++) statuses.push((await forgot(u.email, asker)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const last = await forgot(u.email, asker);
    expect(last.data.message).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    // Per address, not per account: someone else asking for this account is not refused.
    expect((await forgot(u.email, freshIp())).status).toBe(200);
  });
});
