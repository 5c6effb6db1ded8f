// The erasures need the commerce and content steps their faces register (the app loads them with its routes).
import "~/server/commerce/index.server";
import "~/server/content/index.server";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { DELETION_LINK_SENT } from "~/lib/personal-data";
import { action as profileAction } from "~/routes/account/profile";
import { loader as downloadLoader } from "~/routes/account/profile-data-download";
import { action as linkAction, loader as linkLoader } from "~/routes/account/profile-data-request";
import { action as linkDownloadAction } from "~/routes/account/profile-data-request-download";
import { action as yourDataAction } from "~/routes/store/your-data";
import { shopJobs } from "~/server/boot.server";
import { ERASE_EXPIRED_ORDERS_TASK, saveRetentionSetting } from "~/server/people/index.server";
import { account, contactMessages, mailOutbox, newsletterSubscriptions, orders, reviews, session, user } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, settle } from "./admin-catalog-helpers";
import { orderRow, paidOrder } from "./admin-orders-helpers";

/**
 * The profile's 'Download my data' and 'Delete my account', and the pages the mailed links open
 * (docs/rules/personal-data.md, The shopper's side). Whoever is not the data's person gets a 404
 * or a refusal, and nothing is sent or erased; a link works once.
 */

const t = useTestDatabase();

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const post = (path: string, fields: Record<string, string>, as: { id: string } | null = null) =>
  requestAs(t.db, as, path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form(fields) });

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

const userExists = async (id: string) => (await t.db.select().from(user).where(eq(user.id, id))).length === 1;

/** The token of the newest data-request mail to this address. */
async function mailedToken(email: string, kind: string): Promise<string> {
  const mails = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, kind)));
  expect(mails).toHaveLength(1);
  return /token=([A-Za-z0-9_-]{43})/.exec(mails[0]!.text)![1]!;
}

const tampered = (token: string) => `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;

describe("the profile's 'Download my data'", () => {
  it("streams the signed-in shopper's own data as an attachment, never another's; not signed in goes to /auth", async () => {
    const a = await makeCustomer(t.db);
    const b = await makeCustomer(t.db);
    const { orderId } = await paidOrder(t.db, { userId: a.id });
    const order = await orderRow(t.db, orderId);
    const anonymous = await settle(async () => downloadLoader(args(await requestAs(t.db, null, "/profile/data.zip"))));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/auth\?redirectTo=/);

    const res = (await downloadLoader(args(await requestAs(t.db, a, "/profile/data.zip")))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(res);
    expect(files["data.json"]).toContain(a.email);
    expect(files["data.json"]).toContain(order.orderNumber);
    expect(files["data.json"]).not.toContain(b.email);

    const theirs = await unzip((await downloadLoader(args(await requestAs(t.db, b, "/profile/data.zip")))) as Response);
    expect(theirs["data.json"]).toContain(b.email);
    expect(theirs["data.json"]).not.toContain(order.orderNumber);
  });
});

describe("the profile's 'Delete my account'", () => {
  it("asks for the session's own password: another's password or a wrong one erases nothing; the right one erases, keeps reviews as chosen, and signs out", async () => {
    const a = await makeCustomer(t.db, { password: "alpha-password-one" });
    const b = await makeCustomer(t.db, { password: "bravo-password-two" });
    const product = await makeProduct(t.db);
    await t.db.insert(reviews).values({ productId: product.id, userId: a.id, authorName: "Casey C.", rating: 5, title: "Lovely", body: "Soft", status: "approved" });

    // B's session with A's password: B's password is asked, and A is not who B's session deletes.
    const fromB = await settle(async () => profileAction(args(await post("/profile", { intent: "delete-account", password: a.password, reviews: "keep" }, b))));
    expect(fromB).toMatchObject({ status: 400, body: { ok: false, message: "That password is not correct." } });
    const wrong = await settle(async () => profileAction(args(await post("/profile", { intent: "delete-account", password: "not-the-password", reviews: "keep" }, a))));
    expect(wrong.status).toBe(400);
    expect(await userExists(a.id)).toBe(true);
    expect(await userExists(b.id)).toBe(true);

    const out = (await profileAction(args(await post("/profile", { intent: "delete-account", password: a.password, reviews: "keep" }, a)))) as Response;
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/account-deleted");
    expect(out.headers.get("set-cookie")).toMatch(/better-auth\.session_token=;/);
    expect(await userExists(a.id)).toBe(false);
    expect(await t.db.select().from(session).where(eq(session.userId, a.id))).toHaveLength(0);
    const [kept] = await t.db.select().from(reviews).where(eq(reviews.productId, product.id));
    expect(kept).toMatchObject({ userId: null, authorName: "A customer", title: "Lovely" });
    expect(await userExists(b.id)).toBe(true);
  });

  it("an account without a password is mailed a one-time link; a tampered, replayed or other-purpose token is a 404 and erases nothing", async () => {
    const a = await makeCustomer(t.db);
    await t.db.delete(account).where(eq(account.userId, a.id));
    const asked = await settle(async () => profileAction(args(await post("/profile", { intent: "delete-account", reviews: "delete" }, a))));
    expect(asked).toMatchObject({ status: 200, body: { ok: true, message: DELETION_LINK_SENT } });
    expect(await userExists(a.id)).toBe(true);
    const token = await mailedToken(a.email, "account-deletion");

    const open = (tk: string) => settle(async () => linkLoader(args(await requestAs(t.db, null, `/profile/data-request?token=${tk}`))));
    const press = (tk: string) => settle(async () => linkAction(args(await post("/profile/data-request", { token: tk }))));
    expect((await open(tampered(token))).status).toBe(404);
    expect((await press(tampered(token))).status).toBe(404);
    // The deletion link cannot download anything either.
    expect((await settle(async () => linkDownloadAction(args(await post("/profile/data-request/download", { token }))))).status).toBe(404);
    expect(await userExists(a.id)).toBe(true);

    expect(await open(token)).toMatchObject({ status: 200, body: { purpose: "delete-account", reviews: "delete" } });
    const done = await settle(async () => linkAction(args(await post("/profile/data-request", { token }))));
    expect(done).toMatchObject({ status: 302, location: "/account-deleted" });
    expect(await userExists(a.id)).toBe(false);
    expect((await open(token)).status).toBe(404);
    expect((await press(token)).status).toBe(404);
  });
});

describe("a guest's mailed links", () => {
  async function ask(email: string, intent: "export" | "erase") {
    const r = await settle(async () => yourDataAction(args(await post("/your-data", { email, intent }))));
    expect(r.status).toBe(200);
    return mailedToken(email, intent === "export" ? "data-export" : "data-erasure");
  }

  it("the copy's link downloads the address's data once; a tampered or replayed one sends nothing (404)", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const token = await ask(order.email, "export");
    const download = async (tk: string) => linkDownloadAction(args(await post("/profile/data-request/download", { token: tk })));
    expect((await settle(() => download(tampered(token)))).status).toBe(404);
    const res = (await download(token)) as Response;
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect((await unzip(res))["data.json"]).toContain(order.orderNumber);
    expect((await settle(() => download(token))).status).toBe(404);
    // And an export link does not erase.
    expect((await settle(async () => linkAction(args(await post("/profile/data-request", { token })))))).toMatchObject({ status: 404 });
  });

  it("the erasure's link opens a page whose button erases once; a tampered one erases nothing; the order stays as the shop's record", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    await t.db.insert(newsletterSubscriptions).values({ email: order.email });
    await t.db.insert(contactMessages).values({ name: "Casey Buyer", email: order.email, subject: "Hello", message: "A question" });
    const held = async () => ({
      newsletter: (await t.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, order.email))).length,
      messages: (await t.db.select().from(contactMessages).where(eq(contactMessages.email, order.email))).length,
    });
    const token = await ask(order.email, "erase");
    const press = (tk: string) => settle(async () => linkAction(args(await post("/profile/data-request", { token: tk }))));
    expect((await press(tampered(token))).status).toBe(404);
    expect(await held()).toEqual({ newsletter: 1, messages: 1 });
    const page = await settle(async () => linkLoader(args(await requestAs(t.db, null, `/profile/data-request?token=${token}`))));
    expect(page.body).toMatchObject({ purpose: "erase" });
    // Opening the page erased nothing.
    expect(await held()).toEqual({ newsletter: 1, messages: 1 });
    expect(await press(token)).toMatchObject({ status: 302, location: "/profile/data-request?done=erased" });
    expect(await held()).toEqual({ newsletter: 0, messages: 0 });
    const after = await orderRow(t.db, orderId);
    expect(after.totalAmountCents).toBe(order.totalAmountCents);
    expect((await press(token)).status).toBe(404);
  });

});

describe("the retention period's daily task", () => {
  it("is on the shop's job queue and erases the personal fields of orders older than the owner's years, no others", async () => {
    const jobs = shopJobs(t.db);
    const line = jobs.flatMap((j) => j.crontab ?? []).find((l) => l.includes(ERASE_EXPIRED_ORDERS_TASK));
    expect(line).toBe(`30 3 * * * ${ERASE_EXPIRED_ORDERS_TASK} ?max=1`);
    const run = jobs.find((j) => j.handlers[ERASE_EXPIRED_ORDERS_TASK])!.handlers[ERASE_EXPIRED_ORDERS_TASK]!;
    const old = await orderRow(t.db, (await paidOrder(t.db)).orderId);
    const recent = await orderRow(t.db, (await paidOrder(t.db)).orderId);
    await t.db.update(orders).set({ createdAt: new Date(Date.now() - 8 * 365.25 * 24 * 3600_000) }).where(eq(orders.id, old.id));

    await run({}, { id: "1", attempts: 1, maxAttempts: 1 });
    expect((await orderRow(t.db, old.id)).email).toBe(old.email); // 10 years by default

    await saveRetentionSetting(t.db, { years: 7 });
    await run({}, { id: "2", attempts: 1, maxAttempts: 1 });
    const erased = await orderRow(t.db, old.id);
    expect(erased.email).not.toBe(old.email);
    expect(erased.totalAmountCents).toBe(old.totalAmountCents);
    expect((await orderRow(t.db, recent.id)).email).toBe(recent.email);
  });
});
