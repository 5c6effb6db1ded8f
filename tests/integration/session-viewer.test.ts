import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "~/server/platform/http/session-policy";
import { sessionRoleReader } from "~/server/platform/http/session-viewer.server";
import { session } from "~/server/platform/db/schema";
import { createSession, makeAdmin, makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * The page cache's reading of a session cookie (docs/decisions/0023): the role of a live session,
 * and nothing for anything better-auth would not take as it stands — so those render their own page.
 */
const t = useTestDatabase();
const SECRET = "session-viewer-test-secret";
const read = () => sessionRoleReader(() => t.db.$client, () => SECRET);

describe("the role behind a session cookie", () => {
  it("is the signed-in user's role for a live session, read from the database each time", async () => {
    const customer = await makeCustomer(t.db);
    const admin = await makeAdmin(t.db);
    const c = await createSession(t.db, customer.id, SECRET);
    const a = await createSession(t.db, admin.id, SECRET);
    expect(await read()(c.cookieValue)).toBe("customer");
    expect(await read()(a.cookieValue)).toBe("admin");
    // Signed out (the session row is gone): nothing, on the very next request.
    await t.db.delete(session).where(eq(session.token, c.token));
    expect(await read()(c.cookieValue)).toBeNull();
  });

  it("is nothing for a cookie signed with another secret, a token that was never issued, or garbage", async () => {
    const customer = await makeCustomer(t.db);
    const forged = await createSession(t.db, customer.id, "another-secret");
    expect(await read()(forged.cookieValue)).toBeNull();
    const { cookieValue } = await createSession(t.db, customer.id, SECRET);
    const unknownToken = cookieValue.replace(/^[^.%]+/, "nevermade");
    expect(await read()(unknownToken)).toBeNull();
    expect(await read()("%%%")).toBeNull();
  });

  it("is nothing for an expired session, or one due to be extended (better-auth extends it on a rendering)", async () => {
    const customer = await makeCustomer(t.db);
    const s = await createSession(t.db, customer.id, SECRET);
    const now = Date.now();
    const setExpiry = (at: number) => t.db.update(session).set({ expiresAt: new Date(at) }).where(eq(session.token, s.token));
    await setExpiry(now - 1000);
    expect(await read()(s.cookieValue)).toBeNull();
    // Last extended just over a day ago: due for its daily extension.
    await setExpiry(now + (SESSION_EXPIRES_IN_S - SESSION_UPDATE_AGE_S - 60) * 1000);
    expect(await read()(s.cookieValue)).toBeNull();
    await setExpiry(now + (SESSION_EXPIRES_IN_S - SESSION_UPDATE_AGE_S + 3600) * 1000);
    expect(await read()(s.cookieValue)).toBe("customer");
  });
});
