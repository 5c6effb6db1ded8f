// The erasures need the commerce and content steps their faces register (the app loads them with its routes).
import "~/server/commerce/index.server";
import "~/server/content/index.server";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { ALREADY_ERASED, CUSTOMER_GONE, ERASE_ACCOUNT_INTENT, ERASE_GUEST_INTENT, ERASED_TOAST } from "~/lib/privacy-admin";
import { action as authAction } from "~/routes/account/auth";
import { action as customerAction, loader as customerLoader, shouldRevalidate } from "~/routes/admin/customers/customer";
import { loader as dataLoader } from "~/routes/admin/customers/customer-data";
import { loader as privacyLoader } from "~/routes/admin/privacy";
import { emailSubjectRef } from "~/server/people/index.server";
import { ORDER_BEING_PAID } from "~/server/people/privacy/erase.server";
import type { Db } from "~/server/platform/db/client.server";
import { customers, newsletterSubscriptions, orders, privacyAuditLog, testPaymentSessions, user } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { run, post as formPost, freshIp } from "./accounts-helpers";
import { args, get, post, settle } from "./admin-catalog-helpers";

/**
 * The owner's side of personal-data requests (docs/rules/personal-data.md, The owner's side): the
 * admin's 'Export data' and 'Erase' on the customer page, and the privacy log. Admins only; an
 * unknown customer is a 404; a form shown before the customer was erased erases nothing.
 */

const t = useTestDatabase();

async function customerOf(db: Db, email: string) {
  const [row] = await db.select().from(customers).where(eq(customers.emailKey, email.toLowerCase()));
  return row ?? null;
}

/** An order through the real checkout with this email; paid through the test provider unless `paid: false`. */
async function checkoutOrder(db: Db, email: string, opts: { userId?: string | null; paid?: boolean } = {}) {
  const product = await makeProduct(db, {
    stockQuantity: 50,
    priceCents: 2500,
  });
  const checkout = await openCheckout(db, [[product, 1]], {
    userId: opts.userId ?? null,
    form: { email, firstName: "Casey", lastName: "Buyer" },
  });
  if (opts.paid !== false) {
    await db
      .update(testPaymentSessions)
      .set({
        status: "paid",
        paymentReference: `test_pi_${checkout.sessionId.slice(0, 8)}`,
      })
      .where(eq(testPaymentSessions.id, checkout.sessionId));
    const outcome = await confirmPayment(db, checkout.sessionId);
    if (outcome.state !== "paid") throw new Error(`payment not confirmed: ${outcome.state}`);
  }
  const [order] = await db.select().from(orders).where(eq(orders.id, checkout.orderId));
  return order!;
}

/** The files of a ZIP answer, by name. */
async function unzip(res: Response): Promise<Record<string, string>> {
  const buffer = Buffer.from(await res.arrayBuffer());
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const files: Record<string, string> = {};
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            files[entry.fileName] = Buffer.concat(chunks).toString("utf8");
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

const download = async (as: { id: string } | null, customerId: string) =>
  dataLoader(
    args(await requestAs(t.db, as, `/admin/customers/${customerId}/data.zip`), {
      id: customerId,
    }),
  );

const erase = (as: { id: string } | null, customerId: string, body: Record<string, unknown>) =>
  post(t.db, customerAction, as, `/admin/customers/${customerId}`, body, {
    id: customerId,
  });

/** The audit rows about one subject (the database is shared by the file's tests). */
const auditRows = (subjectRef: string) => t.db.select().from(privacyAuditLog).where(eq(privacyAuditLog.subjectRef, subjectRef));

/** The export streams its audit row once the ZIP is written; wait for it (no timing assumed). */
async function auditRowsSettled(subjectRef: string) {
  for (let i = 0; i < 200; i++) {
    const rows = await auditRows(subjectRef);
    if (rows.length > 0) return rows;
    await new Promise((r) => setTimeout(r, 25));
  }
  return auditRows(subjectRef);
}

const signIn = (email: string, password: string) =>
  run(authAction, formPost("/auth", { intent: "sign-in", js: "1", email, password, redirectTo: "/" }, { ip: freshIp() }));

describe("the admin's 'Export data'", () => {
  it("downloads the customer's own ZIP, with their order, privately, and logs the admin who took it", async () => {
    const admin = await makeAdmin(t.db);
    const a = await makeCustomer(t.db);
    const other = await makeCustomer(t.db);
    const order = await checkoutOrder(t.db, a.email, { userId: a.id });
    await checkoutOrder(t.db, other.email, { userId: other.id });
    const row = (await customerOf(t.db, a.email))!;

    const res = (await download(admin, row.id)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="customer-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(res);
    expect(files["data.json"]).toContain(a.email);
    expect(files["data.json"]).toContain(order.orderNumber);
    expect(files["data.json"]).not.toContain(other.email);

    const logged = await auditRowsSettled(`user:${a.id}`);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      kind: "export",
      actorKind: "admin",
      actorId: admin.id,
    });
    const log = await get(t.db, privacyLoader, admin, "/admin/privacy");
    expect(log.body.rows.filter((r: { subjectRef: string }) => r.subjectRef === `user:${a.id}`)).toMatchObject([
      { kind: "export", actorEmail: admin.email },
    ]);
  });

  it("a guest's row downloads what is held under the address", async () => {
    const admin = await makeAdmin(t.db);
    const email = `guest-${randomUUID().slice(0, 8)}@example.com`;
    const order = await checkoutOrder(t.db, email);
    const row = (await customerOf(t.db, email))!;
    expect(row.userId).toBeNull();
    const files = await unzip((await download(admin, row.id)) as Response);
    expect(files["data.json"]).toContain(order.orderNumber);
    const logged = await auditRowsSettled(emailSubjectRef(email));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      kind: "export",
      actorKind: "admin",
      actorId: admin.id,
    });
  });
});

describe("who may export and erase", () => {
  it("a customer gets 403 and a visitor is sent to sign in, for the download, the erasure and the log; nothing is erased or logged", async () => {
    const a = await makeCustomer(t.db);
    await checkoutOrder(t.db, a.email, { userId: a.id });
    const row = (await customerOf(t.db, a.email))!;

    expect((await settle(() => download(a, row.id))).status).toBe(403);
    expect(
      (
        await erase(a, row.id, {
          intent: ERASE_ACCOUNT_INTENT,
          account: a.id,
          reviews: "delete",
        })
      ).status,
    ).toBe(403);
    expect((await get(t.db, privacyLoader, a, "/admin/privacy")).status).toBe(403);

    const anonymous = await settle(() => download(null, row.id));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/auth\?redirectTo=/);
    const anonymousErase = await erase(null, row.id, {
      intent: ERASE_ACCOUNT_INTENT,
      account: a.id,
      reviews: "delete",
    });
    expect(anonymousErase.status).toBe(302);
    expect(anonymousErase.location).toMatch(/^\/auth\?redirectTo=/);

    expect(await t.db.select().from(user).where(eq(user.id, a.id))).toHaveLength(1);
    expect(await auditRows(`user:${a.id}`)).toHaveLength(0);
  });

  it("an unknown or malformed customer id is a 404 for the download and the erasure", async () => {
    const admin = await makeAdmin(t.db);
    for (const id of [randomUUID(), "not-a-customer"]) {
      expect((await settle(() => download(admin, id))).status).toBe(404);
      expect(await erase(admin, id, { intent: ERASE_GUEST_INTENT })).toMatchObject({
        status: 404,
        body: { ok: false, message: CUSTOMER_GONE },
      });
    }
  });
});

describe("the admin's 'Erase'", () => {
  it("erases the account in one go, logs one row without the address, keeps the orders, and the customer can no longer sign in", async () => {
    const admin = await makeAdmin(t.db);
    const a = await makeCustomer(t.db, { password: "alpha-password-one" });
    const order = await checkoutOrder(t.db, a.email, { userId: a.id });
    const row = (await customerOf(t.db, a.email))!;
    expect((await signIn(a.email, a.password)).status).toBe(200);

    // The confirmation counts what goes.
    const page = await get(t.db, customerLoader, admin, `/admin/customers/${row.id}`, { id: row.id });
    expect(page.body.erasure).toMatchObject({
      orders: 1,
      orderBeingPaid: false,
    });
    expect(page.body.erasure.sessions).toBeGreaterThanOrEqual(1);

    const out = await erase(admin, row.id, {
      intent: ERASE_ACCOUNT_INTENT,
      account: a.id,
      reviews: "keep",
    });
    expect(out).toMatchObject({
      status: 200,
      body: { ok: true, message: ERASED_TOAST },
    });

    expect(await t.db.select().from(user).where(eq(user.id, a.id))).toHaveLength(0);
    expect((await signIn(a.email, a.password)).status).toBe(401);
    const [kept] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept).toMatchObject({
      orderNumber: order.orderNumber,
      userId: null,
      email: a.email,
    });

    const logged = await auditRows(`user:${a.id}`);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      kind: "erase-account",
      actorKind: "admin",
      actorId: admin.id,
      subjectRef: `user:${a.id}`,
    });
    expect(JSON.stringify(logged[0]).toLowerCase()).not.toContain(a.email.toLowerCase());

    // The same form sent again (another tab, a double click): nothing more happens, and it says why.
    const again = await erase(admin, row.id, {
      intent: ERASE_ACCOUNT_INTENT,
      account: a.id,
      reviews: "keep",
    });
    expect(again).toMatchObject({
      status: 409,
      body: { ok: false, message: ALREADY_ERASED },
    });
    expect(await auditRows(`user:${a.id}`)).toHaveLength(1);
  });

  it("refuses while an order is being paid: nothing erased, nothing logged", async () => {
    const admin = await makeAdmin(t.db);
    const a = await makeCustomer(t.db);
    await checkoutOrder(t.db, a.email, { userId: a.id });
    await checkoutOrder(t.db, a.email, { userId: a.id, paid: false });
    const row = (await customerOf(t.db, a.email))!;
    const page = await get(t.db, customerLoader, admin, `/admin/customers/${row.id}`, { id: row.id });
    expect(page.body.erasure.orderBeingPaid).toBe(true);

    const out = await erase(admin, row.id, {
      intent: ERASE_ACCOUNT_INTENT,
      account: a.id,
      reviews: "delete",
    });
    expect(out).toMatchObject({
      status: 409,
      body: { ok: false, message: ORDER_BEING_PAID },
    });
    expect(await t.db.select().from(user).where(eq(user.id, a.id))).toHaveLength(1);
    expect(await auditRows(`user:${a.id}`)).toHaveLength(0);
  });

  it("a guest's row erases what is held under the address; the orders stay", async () => {
    const admin = await makeAdmin(t.db);
    const email = `guest-${randomUUID().slice(0, 8)}@example.com`;
    const order = await checkoutOrder(t.db, email);
    await t.db.insert(newsletterSubscriptions).values({ email, status: "subscribed" } as never);
    const row = (await customerOf(t.db, email))!;

    // A guest's erasure named as an account's is a stale form: refused, nothing happens.
    const wrong = await erase(admin, row.id, {
      intent: ERASE_ACCOUNT_INTENT,
      account: "someone",
      reviews: "delete",
    });
    expect(wrong).toMatchObject({
      status: 409,
      body: { ok: false, message: ALREADY_ERASED },
    });
    expect(await t.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email))).toHaveLength(1);

    const out = await erase(admin, row.id, { intent: ERASE_GUEST_INTENT });
    expect(out).toMatchObject({
      status: 200,
      body: { ok: true, message: ERASED_TOAST },
    });
    expect(await t.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email))).toHaveLength(0);
    expect(await t.db.select().from(orders).where(eq(orders.id, order.id))).toHaveLength(1);
    const logged = await auditRows(emailSubjectRef(email));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      kind: "erase-guest",
      actorKind: "admin",
      actorId: admin.id,
    });
    expect(JSON.stringify(logged[0]).toLowerCase()).not.toContain(email);
  });
});

describe("after 'Erase now'", () => {
  it("the customer page is not loaded again (the customer may be gone: a 404 page would hide the toast and the way back to the list)", () => {
    const after = (json: unknown) => shouldRevalidate({ json, defaultShouldRevalidate: true } as never);
    expect(after({ intent: ERASE_ACCOUNT_INTENT, account: "x", reviews: "delete" })).toBe(false);
    expect(after({ intent: ERASE_GUEST_INTENT })).toBe(false);
    expect(after({ intent: "password-reset" })).toBe(true);
  });
});
