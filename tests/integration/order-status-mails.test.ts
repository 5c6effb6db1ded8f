import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import { deliverQueuedMail, queueMail, reviseUntriedMail } from "~/server/platform/mail/mail.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import type { PaymentProvider } from "~/server/commerce/payments/index.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { orderTimeline } from "../factories/orders";
import { makeAdmin } from "../factories/users";
import { runShopJobs } from "../factories/jobs";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";
import { startSmtpFake } from "./smtp-fake";

/**
 * The shipped and cancelled mails are recorded in the send log in the status change's own
 * transaction: the change and its mail commit together or not at all.
 */

const t = useTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpFake>>;

beforeAll(async () => {
  smtp = await startSmtpFake();
});
afterAll(async () => {
  await smtp.stop();
});
afterEach(async () => {
  delete process.env.SMTP_URL;
  resetEnvCache();
  await t.db.execute(sql`drop trigger if exists fail_at_commit on mail_outbox`);
  await smtp.start();
});

function useSmtp() {
  process.env.SMTP_URL = smtp.url;
  resetEnvCache();
}

/** A failure at the commit of any transaction that recorded a mail of this kind (after it was queued). */
async function failCommitsWithMail(kind: string) {
  await t.db.execute(sql`
    create or replace function fail_at_commit() returns trigger language plpgsql as $$
    begin raise exception 'injected failure at commit'; end $$`);
  await t.db.execute(
    sql.raw(`create constraint trigger fail_at_commit after insert on mail_outbox deferrable initially deferred
             for each row when (new.kind = '${kind}') execute function fail_at_commit()`),
  );
}

/** The database's own words for why the promise failed (drizzle wraps them as the cause). */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ""}`;
  }
  return "no failure";
}

const mailsOf = (to: string, kind: string) =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));

async function move(orderId: string, to: "shipped" | "cancelled", extra: { trackingNumber?: string; refund?: boolean } = {}, provider?: PaymentProvider) {
  const admin = await makeAdmin(t.db, { firstName: "Ada", lastName: "Admin" });
  const actor = { id: admin.id, name: "Ada Admin", email: admin.email };
  const expectedVersion = (await orderRow(t.db, orderId)).version;
  return changeOrderStatus(t.db, { orderId, to, expectedVersion, actor, ...extra }, provider ? { providers: onlyProvider(provider) } : {});
}

describe("the status change and its mail commit together", () => {
  it("a shipped mail that cannot be recorded takes the change with it: the order is still processing, nothing on the timeline", async () => {
    const { orderId } = await paidOrder(t.db);
    const before = await orderRow(t.db, orderId);
    await failCommitsWithMail("order-shipped");

    expect(await failure(move(orderId, "shipped", { trackingNumber: "1Z999AA10123456784" }))).toMatch(/injected failure at commit/);
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "processing", version: before.version, trackingNumber: null });
    expect((await orderTimeline(t.db, orderId)).filter((e) => e.toStatus === "shipped")).toEqual([]);
    expect(await mailsOf(before.email, "order-shipped")).toEqual([]);

    // Once the send log takes mail again, the same move goes through with its mail.
    await t.db.execute(sql`drop trigger fail_at_commit on mail_outbox`);
    await move(orderId, "shipped", { trackingNumber: "1Z999AA10123456784" });
    expect((await orderRow(t.db, orderId)).status).toBe("shipped");
    const [mail] = await mailsOf(before.email, "order-shipped");
    expect(mail).toMatchObject({ status: "sent", transport: "outbox", subject: `Order ${before.orderNumber} has shipped` });
    expect(mail!.text).toContain("Tracking number: 1Z999AA10123456784");
  });

  it("a cancelled mail that cannot be recorded takes the cancel with it: no stock back, no refund recorded", async () => {
    const { orderId } = await paidOrder(t.db);
    const before = await orderRow(t.db, orderId);
    await failCommitsWithMail("order-cancelled");

    expect(await failure(move(orderId, "cancelled", { refund: true }))).toMatch(/injected failure at commit/);
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "processing", paymentStatus: "paid", version: before.version, stockReleasedAt: null });
    expect(await mailsOf(before.email, "order-cancelled")).toEqual([]);
  });

  it("with SMTP down, a committed shipment's mail is in the log waiting for its retry, with the tracking number", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    useSmtp();
    await smtp.stop();
    await move(orderId, "shipped", { trackingNumber: "1Z999AA10123456784" });
    // Committed with its job; the worker's try after the commit finds the relay down.
    const [queued] = await mailsOf(order.email, "order-shipped");
    expect(queued).toMatchObject({ status: "queued", attempts: 0, transport: "smtp" });
    await runShopJobs(t.db);
    const [mail] = await mailsOf(order.email, "order-shipped");
    expect(mail).toMatchObject({ status: "retrying", attempts: 1, transport: "smtp" });
    expect(mail!.text).toContain("Tracking number: 1Z999AA10123456784");
  });
});

describe("the cancelled mail says what happened to the money", () => {
  it("refunded at once: the mail recorded with the cancel says 'has been refunded' when it goes out", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    useSmtp();
    smtp.received.length = 0;
    expect(await move(orderId, "cancelled", { refund: true })).toMatchObject({ refund: "refunded" });
    await runShopJobs(t.db);
    const [mail] = await mailsOf(order.email, "order-cancelled");
    expect(mail).toMatchObject({ status: "sent", attempts: 1 });
    expect(mail!.text).toContain("Your payment of $50.00 has been refunded in full.");
    const received = smtp.received.filter((m) => m.to.includes(order.email) && m.subject === `Order ${order.orderNumber} cancelled`);
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain("has been refunded in full");
  });

  it("the refund call failed: the mail says it will be refunded (the refund is retried)", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const refusing = { name: "test", refund: async () => Promise.reject(new Error("card network unreachable")) } as unknown as PaymentProvider;
    expect(await move(orderId, "cancelled", { refund: true }, refusing)).toMatchObject({ refund: "failed" });
    const [mail] = await mailsOf(order.email, "order-cancelled");
    expect(mail!.text).toContain("Your payment of $50.00 will be refunded in full.");
  });

  it("cancelled without a refund: no word about a refund", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    await move(orderId, "cancelled", { refund: false });
    const [mail] = await mailsOf(order.email, "order-cancelled");
    expect(mail!.text).toContain(`Order ${order.orderNumber} has been cancelled.`);
    expect(mail!.text).not.toMatch(/refunded/);
  });
});

describe("revising a recorded mail", () => {
  it("a mail never tried takes new words; one the relay was tried with keeps the words it was tried with", async () => {
    useSmtp();
    const untried = await queueMail(t.db, { to: "a@example.test", subject: "First", text: "first words", kind: "test" });
    expect(await reviseUntriedMail(t.db, untried.id, { subject: "Second", text: "second words" })).toBe(true);
    const [revised] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, untried.id));
    expect(revised).toMatchObject({ subject: "Second", text: "second words", status: "queued" });

    const tried = await queueMail(t.db, { to: "b@example.test", subject: "First", text: "first words", kind: "test" });
    await smtp.stop();
    await deliverQueuedMail(t.db, tried.id);
    expect(await reviseUntriedMail(t.db, tried.id, { subject: "Second", text: "second words" })).toBe(false);
    const [kept] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, tried.id));
    expect(kept).toMatchObject({ subject: "First", text: "first words", status: "retrying" });
  });
});
