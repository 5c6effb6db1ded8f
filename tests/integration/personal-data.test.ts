// A person's data (docs/rules/personal-data.md): the download has every column the registry
// exports; erasing an account leaves nothing of it in any registered column that erasure clears,
// while its orders, the money and the figures stay as they were; an order being paid blocks it;
// a guest's erasure and the retention task (resumable after a crash) do their part.
import "~/server/commerce/index.server";
import "~/server/content/index.server";
import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import {
  ORDER_BEING_PAID,
  eraseAccount,
  eraseExpiredOrderData,
  eraseGuestData,
  exportPersonalData,
} from "~/server/people/index.server";
import { PERSONAL_DATA, registryKey } from "~/server/people/privacy/registry";
import type { Db } from "~/server/platform/db/client.server";
import {
  cartLines,
  contactMessages,
  mailOptOuts,
  mailOutbox,
  newsletterSubscriptions,
  orderReturns,
  orders,
  reviews,
  savedAddresses,
  session,
} from "~/server/platform/db/schema";
import { registerPrivacySteps } from "~/server/platform/index.server";
import { placeOrder } from "../factories/sold-orders";
import { makeProduct } from "../factories/products";
import { makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

/** Unzips into name → text. */
async function unzip(buf: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, string>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
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

async function exportZip(db: Db, subject: { userId: string } | { email: string }) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  await exportPersonalData(db, subject, out);
  return unzip(Buffer.concat(chunks));
}

/** A customer with something in every place the shop keeps personal data; unique strings to look for afterwards. */
async function fullCustomer(db: Db, tag: string) {
  const needles = {
    email: `${tag}@example.test`,
    first: `Firstname${tag}`,
    last: `Lastname${tag}`,
    phone: `+44 7700 ${tag.slice(0, 6)}`,
    street: `${tag} Privacy Street`,
  };
  const user = await makeCustomer(db, { email: needles.email, firstName: needles.first, lastName: needles.last, phone: needles.phone });
  await db.insert(session).values({
    id: randomUUID(),
    token: randomUUID(),
    userId: user.id,
    expiresAt: new Date(Date.now() + 86_400_000),
    createdAt: new Date(),
    updatedAt: new Date(),
    ipAddress: "198.51.100.77",
    userAgent: `Browser/${tag}`,
  });
  await db.insert(savedAddresses).values({
    userId: user.id,
    firstName: needles.first,
    lastName: needles.last,
    phone: needles.phone,
    address: needles.street,
    city: "Privacyville",
    state: "PV",
    zipCode: "PV1 1AA",
    country: "GB",
  });
  const product = await makeProduct(db, { priceCents: 1500 });
  const paid = [];
  for (const day of ["2026-03-02T10:00:00Z", "2026-04-05T10:00:00Z"]) {
    const o = await placeOrder(db, { email: needles.email, paidAt: day, lines: [[product, 2, 1500]], shippingCents: 500 });
    await db
      .update(orders)
      .set({ userId: user.id, firstName: needles.first, lastName: needles.last, phone: needles.phone, address: needles.street })
      .where(sql`id = ${o.id}`);
    paid.push(o);
  }
  await db.insert(orderReturns).values({
    orderId: paid[0]!.id,
    sequence: 1,
    returnNumber: `R-${paid[0]!.orderNumber}-1`,
    reason: "other",
    reasonText: `Too small for ${needles.first}`,
    shopperMessage: `Approved, ${needles.first}`,
    lines: [],
    requestKey: randomUUID(),
    requestedByUserId: user.id,
  });
  await db.insert(reviews).values({
    productId: product.id,
    userId: user.id,
    orderId: paid[0]!.id,
    authorName: `${needles.first} L.`,
    rating: 5,
    title: "Lovely",
    body: "Soft and warm.",
    status: "approved",
  });
  await db.insert(newsletterSubscriptions).values({ email: needles.email, confirmedAt: new Date("2026-01-02T03:04:05Z") });
  await db.insert(cartLines).values({ userId: user.id, productId: product.id, quantity: 3 });
  await db.insert(contactMessages).values({ name: `${needles.first} ${needles.last}`, email: needles.email, subject: "Hello", message: `Call me on ${needles.phone}` });
  await db.insert(mailOptOuts).values({ emailKey: needles.email });
  await db.insert(mailOutbox).values({ to: needles.email, from: "shop@example.test", subject: `Thanks ${needles.first}`, text: `Dear ${needles.first}`, kind: "order-confirmation" });
  return { user, needles, paid, product };
}

describe("exportPersonalData", () => {
  it("gives every column the registry exports, with the customer's own values, as JSON and CSV", async () => {
    const { user, needles, paid } = await fullCustomer(t.db, "exp1a2b3c");
    const files = await exportZip(t.db, { userId: user.id });
    expect([...files.keys()].sort()).toEqual(
      [
        "README.txt",
        "data.json",
        "account.csv",
        "sessions.csv",
        "addresses.csv",
        "orders.csv",
        "order-lines.csv",
        "returns.csv",
        "reviews.csv",
        "saved-cart.csv",
        "newsletter.csv",
        "contact-messages.csv",
        "consents.csv",
      ].sort(),
    );
    const data = JSON.parse(files.get("data.json")!);
    expect(data.account.user.email).toBe(needles.email);
    expect(data.account.profile.phone).toBe(needles.phone);
    expect(data.orders.map((o: { order_number: string }) => o.order_number).sort()).toEqual(paid.map((p) => p.orderNumber).sort());
    expect(data.orders[0].total_amount_cents).toBe(3500);
    expect(data.orders[0].lines).toEqual([expect.objectContaining({ quantity: 2, unit_price_cents: 1500, line_total_cents: 3000 })]);
    expect(data.newsletter[0].confirmed_at).toBe("2026-01-02T03:04:05.000Z");

    // Every registered exported column is there with the value the database holds for this customer.
    const sectionRows = (section: string, table: string): Record<string, unknown>[] => {
      if (section === "account") return [table === "users" ? data.account.user : data.account.profile];
      if (section === "order_lines") return data.orders.flatMap((o: { lines: unknown[] }) => o.lines);
      return data[section];
    };
    const missing: string[] = [];
    for (const c of PERSONAL_DATA) {
      if (!("section" in c.export)) continue;
      const rows = sectionRows(c.export.section, c.table);
      if (!rows?.length || !rows.every((r) => c.column in r && r[c.column] !== undefined)) missing.push(registryKey(c.table, c.column));
    }
    expect(missing).toEqual([]);
    expect(files.get("addresses.csv")).toContain(needles.street);
    expect(files.get("orders.csv")!.split("\r\n")[0]).toContain('"total_amount"');
    expect(files.get("orders.csv")).toContain('"35.00"');
    expect(files.get("order-lines.csv")).toContain(paid[0]!.orderNumber);
    expect(files.get("reviews.csv")).toContain(`${needles.first} L.`);
    const audit = await t.db.execute<{ kind: string; subject_ref: string; counts: Record<string, number> }>(
      sql`select kind, subject_ref, counts from privacy_audit_log where subject_ref = ${`user:${user.id}`}`,
    );
    expect(audit.rows).toEqual([{ kind: "export", subject_ref: `user:${user.id}`, counts: expect.objectContaining({ orders: 2, addresses: 1, reviews: 1 }) }]);
  });

  it("streams thousands of orders completely, a page at a time", async () => {
    const user = await makeCustomer(t.db, { email: "many-orders@example.test" });
    const product = await makeProduct(t.db, { priceCents: 700 });
    // Loaded as a bulk load is: the roll-up triggers off, the roll-ups rebuilt after. With them on,
    // each order recomputes its customer from all of their orders, 3,000 times over (about 24 s).
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into orders (order_number, status, payment_status, subtotal_cents, total_amount_cents, email, first_name, last_name,
                            address, city, state, zip_code, user_id, created_at)
        select 'BULK-' || g, 'pending', 'failed', 700, 700, 'many-orders@example.test', 'Many', 'Orders', '1 Bulk Road', 'Town', 'TS', '00000',
               ${user.id}, now() - g * interval '1 minute'
        from generate_series(1, 3000) g`);
      await tx.execute(sql`
        insert into order_items (order_id, product_id, name, image_url, unit_price_cents, quantity, line_total_cents)
        select id, ${product.id}::uuid, 'Bulk line', '', 700, 1, 700 from orders where user_id = ${user.id}`);
      await tx.execute(sql`set local session_replication_role = origin`);
      await tx.execute(sql`select customers_rebuild(), sales_rollups_rebuild()`);
    });
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => {
      chunks.push(c);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    });
    await exportPersonalData(t.db, { userId: user.id }, out);
    const zipBytes = Buffer.concat(chunks);
    const files = await unzip(zipBytes);
    const data = JSON.parse(files.get("data.json")!);
    expect(data.orders).toHaveLength(3000);
    expect(new Set(data.orders.map((o: { order_number: string }) => o.order_number)).size).toBe(3000);
    expect(data.orders.every((o: { lines: unknown[] }) => o.lines.length === 1)).toBe(true);
    expect(files.get("orders.csv")!.trim().split("\r\n")).toHaveLength(3001);
    expect(files.get("order-lines.csv")!.trim().split("\r\n")).toHaveLength(3001);
    console.log(
      `export of 3000 orders: zip ${(zipBytes.length / 1024).toFixed(0)} KiB, data.json ${(files.get("data.json")!.length / 1024).toFixed(0)} KiB, heap growth while streaming ≈ ${((peak - before) / 1048576).toFixed(1)} MiB (the test keeps the ZIP's bytes itself)`,
    );
  }, 180_000);
});

/** Every registered column that the account's erasure clears, searched for each of the customer's strings. */
async function leftovers(db: Db, needles: Record<string, string>) {
  const found: string[] = [];
  for (const c of PERSONAL_DATA) {
    if (["keep", "derived", "expires"].includes(c.erase.account.do)) continue;
    for (const [what, needle] of Object.entries(needles)) {
      const r = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(c.table)} where strpos(lower(${sql.identifier(c.column)}::text), lower(${needle})) > 0`,
      );
      if ((r.rows[0]?.n ?? 0) > 0) found.push(`${registryKey(c.table, c.column)} has the ${what}`);
    }
  }
  return found;
}

const figures = async (db: Db) =>
  (
    await db.execute(sql`
    select (select json_agg(s order by day) from sales_daily s) as sales,
           (select json_agg(f order by day) from first_orders_daily f) as firsts,
           (select json_agg(r order by day) from repeat_orders_daily r) as repeats,
           (select json_agg(json_build_array(order_number, total_amount_cents, refunded_cents, status, payment_status) order by order_number) from orders) as orders,
           (select count(*) from order_items) as lines,
           (select count(*) from order_money_movements) as movements`)
  ).rows[0];

describe("eraseAccount", () => {
  it("leaves nothing of the customer where erasure clears, keeps the orders, the money and the figures, and logs counts only", async () => {
    const { user, needles, paid } = await fullCustomer(t.db, "era4d5e6f");
    const other = await fullCustomer(t.db, "keep7a8b9");
    const before = await figures(t.db);
    expect((await leftovers(t.db, needles)).length).toBeGreaterThan(10);

    const result = await eraseAccount(t.db, user.id, { reviews: "keep", actor: { kind: "customer", id: user.id } });
    expect(result.counts).toMatchObject({ account: 1, sessions: 1, addresses: 1, reviewsKept: 1, newsletter: 1, contactMessages: 1, ordersKept: 2, savedCartLines: 1 });

    expect(await leftovers(t.db, needles)).toEqual([]);
    expect(await figures(t.db)).toEqual(before);
    // The orders stay as the shop's records, with their fields, detached from the account.
    const kept = await t.db.select().from(orders).where(sql`id in (${paid[0]!.id}::uuid, ${paid[1]!.id}::uuid)`);
    expect(kept.map((o) => [o.userId, o.email, o.firstName])).toEqual([
      [null, needles.email, needles.first],
      [null, needles.email, needles.first],
    ]);
    const [review] = await t.db.select().from(reviews).where(sql`order_id = ${paid[0]!.id}`);
    expect(review).toMatchObject({ authorName: "A customer", userId: null, body: "Soft and warm." });
    // The other customer is untouched.
    expect((await leftovers(t.db, other.needles)).length).toBeGreaterThan(10);
    // The log says what went, never the address or the name.
    const log = await t.db.execute(sql`select row_to_json(l)::text as row from privacy_audit_log l where kind = 'erase-account'`);
    expect(log.rows).toHaveLength(1);
    for (const needle of Object.values(needles)) expect(String(log.rows[0]!.row).toLowerCase()).not.toContain(needle.toLowerCase());
  });

  it("deletes the reviews when asked, and the product's rating follows", async () => {
    const { user, product } = await fullCustomer(t.db, "rev1c2d3e");
    await eraseAccount(t.db, user.id, { reviews: "delete", actor: { kind: "admin", id: randomUUID() } });
    expect(await t.db.select().from(reviews).where(sql`product_id = ${product.id}`)).toEqual([]);
    const p = await t.db.execute<{ review_count: number }>(sql`select review_count from products where id = ${product.id}`);
    expect(p.rows[0]!.review_count).toBe(0);
  });

  it("refuses while an order of theirs is being paid, and changes nothing", async () => {
    const { user, needles } = await fullCustomer(t.db, "pay9f8e7d");
    await placeOrder(t.db, { email: needles.email, lines: [] }); // unpaid, pending: its payment page may be open
    const before = await leftovers(t.db, needles);
    await expect(eraseAccount(t.db, user.id, { reviews: "delete", actor: { kind: "customer", id: user.id } })).rejects.toThrow(ORDER_BEING_PAID);
    expect(await leftovers(t.db, needles)).toEqual(before);
    const log = await t.db.execute(sql`select 1 from privacy_audit_log where subject_ref = ${`user:${user.id}`}`);
    expect(log.rows).toEqual([]);
  });
});

describe("eraseGuestData", () => {
  it("erases the newsletter entry, messages, never-paid checkouts and mails under the address; paid orders stay", async () => {
    const email = "guest-erase@example.test";
    const paid = await placeOrder(t.db, { email, paidAt: "2026-05-01T10:00:00Z", lines: [] });
    const failed = await placeOrder(t.db, { email, paymentStatus: "failed", lines: [] });
    await t.db.insert(newsletterSubscriptions).values({ email });
    await t.db.insert(contactMessages).values({ name: "Guest Person", email, subject: "Hi", message: "Hello" });
    await t.db.insert(mailOutbox).values({ to: email, from: "shop@example.test", subject: "Your basket", text: "Come back", kind: "checkout-reminder" });
    const result = await eraseGuestData(t.db, "  Guest-Erase@Example.test ", { kind: "guest" });
    expect(result.counts).toMatchObject({ newsletter: 1, contactMessages: 1, abandonedCheckouts: 1, mails: 1 });
    const rows = await t.db.select({ id: orders.id, email: orders.email }).from(orders).where(sql`id in (${paid.id}::uuid, ${failed.id}::uuid)`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.email]))).toEqual({ [paid.id]: email, [failed.id]: "erased@invalid" });
    const outbox = await t.db.execute(sql`select 1 from mail_outbox where lower("to") = ${email}`);
    expect(outbox.rows).toEqual([]);
  });
});

describe("eraseExpiredOrderData", () => {
  beforeAll(() => registerPrivacySteps("zz-test", {}));

  it("erases orders past the retention period in batches, and resumes after a crash", async () => {
    const old: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await placeOrder(t.db, { email: `old-${i}@example.test`, paidAt: `2014-0${i + 1}-10T10:00:00Z`, lines: [] });
      old.push(o.id);
    }
    const recent = await placeOrder(t.db, { email: "recent@example.test", paidAt: "2025-06-10T10:00:00Z", lines: [] });
    const totals = await t.db.execute(sql`select sum(total_amount_cents)::text as s from orders`);
    let calls = 0;
    registerPrivacySteps("zz-test", {
      async expiredOrders() {
        calls += 1;
        if (calls === 2) throw new Error("server died");
        return {};
      },
    });
    const now = new Date("2026-11-28T00:00:00Z");
    await expect(eraseExpiredOrderData(t.db, now, 10, 2)).rejects.toThrow("server died");
    const emails = async () =>
      Object.fromEntries((await t.db.select({ id: orders.id, email: orders.email }).from(orders).where(sql`id in (${sql.join([...old, recent.id].map((id) => sql`${id}::uuid`), sql`, `)})`)).map((r) => [r.id, r.email]));
    const afterCrash = Object.values(await emails());
    expect(afterCrash.filter((e) => e === "erased@invalid")).toHaveLength(2); // the first batch committed, the second rolled back
    registerPrivacySteps("zz-test", {});
    const run = await eraseExpiredOrderData(t.db, now, 10, 2);
    expect(run.orders).toBe(3);
    const after = await emails();
    expect(old.map((id) => after[id])).toEqual(Array(5).fill("erased@invalid"));
    expect(after[recent.id]).toBe("recent@example.test");
    expect((await t.db.execute(sql`select sum(total_amount_cents)::text as s from orders`)).rows).toEqual(totals.rows);
    const again = await eraseExpiredOrderData(t.db, now, 10, 2);
    expect(again.orders).toBe(0);
  });
});
