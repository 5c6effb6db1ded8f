import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action as outboxAction, loader as outboxLoader } from "~/routes/admin/outbox/index";
import { loader as messageLoader } from "~/routes/admin/outbox/message";
import { loader as layoutLoader } from "~/routes/admin/layout";
import { sendPasswordResetMail } from "~/server/people/auth/auth-mails.server";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { mailOutbox } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import {
  deliverQueuedMail,
  MAIL_TASK,
  mailJobs,
  MAX_ATTEMPTS,
  queueMail,
  REDACTED_LINK,
  resendMail,
  RETRY_DELAYS_SECONDS,
  sendMail,
  SEND_LEASE_SECONDS,
} from "~/server/platform/mail/mail.server";
import { countFailedMails, getOutboxMessage } from "~/server/platform/mail/outbox.server";
import { startJobRunner } from "~/server/platform/jobs/queue.server";
import { payWithTestCard } from "~/server/commerce/settlement/test-payments.server";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, run } from "./accounts-helpers";
import { startSmtpFake } from "./smtp-fake";

const t = useTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpFake>>;
/** A second app server on the same database: its own connection pool. */
let other: Database;

const GOOD_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" };
const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000);

beforeAll(async () => {
  smtp = await startSmtpFake();
  other = createDatabase(t.url, 5);
});
afterAll(async () => {
  await other.$client.end();
  await smtp.stop();
});
beforeEach(async () => {
  await t.db.delete(mailOutbox);
  await t.db.execute(sql`delete from graphile_worker._private_jobs`);
  smtp.received.length = 0;
  smtp.mode.reject = null;
  smtp.mode.delayMs = 0;
  smtp.mode.loseReplies = 0;
  process.env.SMTP_URL = smtp.url;
  resetEnvCache();
});
afterEach(async () => {
  delete process.env.SMTP_URL;
  resetEnvCache();
  await smtp.start(); // after a test that stopped it
});

async function row(id: string) {
  const [r] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return r!;
}

/**
 * Stands for the job queue at `at`: takes every mail job due by then (as a server's worker takes
 * a job, so two servers never take the same one) and runs it. Answers how many mails were sent.
 */
async function runMailJobs(db: Database, at = new Date()): Promise<number> {
  const due = await db.execute<{ mail_id: string }>(sql`
    delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
     where t.id = j.task_id and t.identifier = ${MAIL_TASK} and j.run_at <= ${at.toISOString()}::timestamptz and j.locked_at is null
    returning j.payload->>'mailId' as mail_id`);
  let sent = 0;
  for (const r of due.rows) if ((await deliverQueuedMail(db, r.mail_id, { at })) === "sent") sent++;
  return sent;
}

/** The mail's waiting jobs, with when each is due. */
async function jobsOf(id: string) {
  const r = await t.db.execute<{ run_at: string }>(sql`
    select j.run_at::text from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${MAIL_TASK} and j.payload->>'mailId' = ${id}`);
  return r.rows.map((x) => new Date(x.run_at));
}

/** Seconds from now until the mail's next try. */
const secondsUntil = (d: Date | null) => (d!.getTime() - Date.now()) / 1000;

describe("SMTP down while 200 orders are paid", () => {
  it("every confirmation is recorded with its order, goes out once SMTP is back, and none goes out twice, with two workers at once", async () => {
    const product = await makeProduct(t.db, { name: "Outage Pillow", priceCents: 2500, unlimitedStock: true, stockQuantity: 0 });
    const checkouts = [];
    for (let i = 0; i < 200; i += 10) {
      checkouts.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => openCheckout(t.db, [[product, 1]], { form: { email: `outage-${i + k}@example.test` } })))));
    }
    await smtp.stop();
    for (let i = 0; i < checkouts.length; i += 10) {
      await Promise.all(checkouts.slice(i, i + 10).map((c) => payWithTestCard(t.db, c.sessionId, GOOD_CARD)));
    }
    // Each payment committed its confirmation with the job that sends it; a worker takes the jobs
    // as they commit, and the relay is down.
    expect(await runMailJobs(t.db)).toBe(0);

    // Paid, and each order's confirmation is in the log, waiting for its next try: nothing was lost.
    const waiting = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-confirmation"));
    expect(waiting).toHaveLength(200);
    expect(new Set(waiting.map((m) => m.to)).size).toBe(200);
    for (const m of waiting) {
      expect(m).toMatchObject({ status: "retrying", attempts: 1, sentAt: null });
      expect(m.error).toMatch(/ECONNREFUSED|connect/i);
      expect(m.html).toContain("Outage Pillow");
    }
    expect(await countFailedMails(t.db)).toBe(200);
    expect(smtp.received).toHaveLength(0);

    // Each waits with one job, due at its next try.
    for (const m of waiting) expect(await jobsOf(m.id)).toEqual([m.nextAttemptAt]);

    // An hour later SMTP is back; two servers' workers take the jobs at the same moment.
    await smtp.start();
    const at = minutesFromNow(61);
    const [a, b] = await Promise.all([runMailJobs(t.db, at), runMailJobs(other, at)]);
    expect(a + b).toBe(200);
    expect(smtp.received).toHaveLength(200);
    const recipients = smtp.received.map((m) => m.to[0]!);
    expect(new Set(recipients).size).toBe(200);
    expect(recipients.sort()).toEqual(waiting.map((m) => m.to).sort());
    for (const m of smtp.received) expect(m.subject).toMatch(/^Order \S+ confirmed$/);

    const after = await t.db.select({ status: mailOutbox.status }).from(mailOutbox);
    expect(after.every((m) => m.status === "sent")).toBe(true);
    expect(await countFailedMails(t.db)).toBe(0);
    // Nothing is left to send, and no job waits.
    expect(await runMailJobs(t.db, minutesFromNow(120))).toBe(0);
    expect((await t.db.execute(sql`select 1 from graphile_worker._private_jobs`)).rows).toHaveLength(0);
    expect(smtp.received).toHaveLength(200);
  }, 180_000);
});

describe("retries with backoff, then given up", () => {
  it("tries 5 times over about an hour (1, 5, 15 and 40 minutes apart), then gives up with the relay's answer", async () => {
    smtp.mode.reject = "550 5.1.1 mailbox unavailable";
    const sent = await sendMail(t.db, { to: "nobody@example.test", subject: "Bounce", text: "x", kind: "test" });
    expect(sent.status).toBe("retrying");
    let r = await row(sent.id);
    expect(r).toMatchObject({ status: "retrying", attempts: 1 });
    expect(r.error).toMatch(/550 5\.1\.1 mailbox unavailable/);
    expect(secondsUntil(r.nextAttemptAt)).toBeGreaterThan(RETRY_DELAYS_SECONDS[0] - 15);
    expect(secondsUntil(r.nextAttemptAt)).toBeLessThanOrEqual(RETRY_DELAYS_SECONDS[0]);

    // Not due yet: its job waits for the next try.
    expect(await jobsOf(sent.id)).toEqual([r.nextAttemptAt]);
    expect(await runMailJobs(t.db, new Date(Date.now() + 30_000))).toBe(0);
    expect((await row(sent.id)).attempts).toBe(1);

    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      const due = new Date((await row(sent.id)).nextAttemptAt!.getTime() + 1000);
      await runMailJobs(t.db, due);
      r = await row(sent.id);
      expect(r.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(r.status).toBe("retrying");
        const wait = RETRY_DELAYS_SECONDS[attempt - 1]!;
        expect(secondsUntil(r.nextAttemptAt)).toBeGreaterThan(wait - 15);
        expect(secondsUntil(r.nextAttemptAt)).toBeLessThanOrEqual(wait);
      }
    }
    expect(r).toMatchObject({ status: "given_up", nextAttemptAt: null, sentAt: null });
    expect(r.error).toMatch(/550 5\.1\.1 mailbox unavailable/);
    // The four waits add up to about an hour.
    expect(RETRY_DELAYS_SECONDS.reduce((s, x) => s + x, 0)).toBe(61 * 60);
    // Given up means no more tries: no job waits.
    expect(await jobsOf(sent.id)).toEqual([]);
    expect(await runMailJobs(t.db, minutesFromNow(24 * 60))).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("each waiting mail has one job, due at its next try; while the relay is down each is tried once a turn", async () => {
    await smtp.stop();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await queueMail(t.db, { to: `r${i}@example.test`, subject: `R${i}`, text: "x" })).id);
    for (const id of ids) expect(await jobsOf(id)).toHaveLength(1);
    expect(await runMailJobs(t.db)).toBe(0);
    for (const id of ids) {
      const r = await row(id);
      expect(r).toMatchObject({ status: "retrying", attempts: 1 });
      expect(await jobsOf(id)).toEqual([r.nextAttemptAt]);
    }
  });
});

describe("a mail resent after a lost reply", () => {
  it("goes out again with the same Message-ID, so the receiver sees one mail twice, not two mails", async () => {
    smtp.mode.loseReplies = 1;
    const { id } = await queueMail(t.db, { to: "once@example.test", subject: "Your order", text: "x" });
    expect(await deliverQueuedMail(t.db, id)).toBe("retrying");
    expect(await deliverQueuedMail(t.db, id, { at: minutesFromNow(2) })).toBe("sent");
    const ids = smtp.received.map((m) => /^Message-ID: *(<[^>]+>)/im.exec(m.raw)?.[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    // Another mail has its own.
    const other = await queueMail(t.db, { to: "other@example.test", subject: "Another", text: "x" });
    expect(await deliverQueuedMail(t.db, other.id)).toBe("sent");
    expect(/^Message-ID: *(<[^>]+>)/im.exec(smtp.received[2]!.raw)?.[1]).not.toBe(ids[0]);
  });
});

describe("a mail is recorded first", () => {
  it("in the caller's transaction: rolled back, it never existed (nor its job); committed, its job sends it", async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await sendMail(tx, { to: "rolled@example.test", subject: "Never", text: "x" });
        throw new Error("the order failed");
      }),
    ).rejects.toThrow("the order failed");
    const id = await t.db.transaction(async (tx) => (await sendMail(tx, { to: "kept@example.test", subject: "Kept", text: "x" })).id);
    // Inside the transaction it was only recorded.
    expect(smtp.received).toHaveLength(0);
    expect((await t.db.select().from(mailOutbox)).map((m) => m.to)).toEqual(["kept@example.test"]);
    expect((await t.db.execute(sql`select payload->>'mailId' as id from graphile_worker._private_jobs`)).rows).toEqual([{ id }]);
    expect(await runMailJobs(t.db)).toBe(1);
    expect(smtp.received.map((m) => m.to[0])).toEqual(["kept@example.test"]);
    expect((await row(id)).status).toBe("sent");
  });

  it("a committed mail goes out through a server's job queue worker, and a failed try waits there for its next one", async () => {
    const runner = await startJobRunner(other, [mailJobs(other)], { pollIntervalMs: 100 });
    try {
      const id = await t.db.transaction(async (tx) => (await queueMail(tx, { to: "worker@example.test", subject: "By the worker", text: "x" })).id);
      await expect.poll(async () => (await row(id)).status, { timeout: 15_000 }).toBe("sent");
      expect(smtp.received.map((m) => m.to[0])).toEqual(["worker@example.test"]);

      smtp.mode.reject = "451 try again later";
      const later = (await queueMail(t.db, { to: "later@example.test", subject: "Later", text: "x" })).id;
      await expect.poll(async () => (await row(later)).status, { timeout: 15_000 }).toBe("retrying");
      // The try's own job ends as the next one waits: one job, due at the next try.
      await expect.poll(async () => (await jobsOf(later)).map((d) => d.getTime()), { timeout: 15_000 }).toEqual([(await row(later)).nextAttemptAt!.getTime()]);
    } finally {
      await runner.stop();
    }
  });

  it("a mail claimed by a server that died mid-send is tried again once its lease is over, not before", async () => {
    const { id } = await queueMail(t.db, { to: "lease@example.test", subject: "Lease", text: "x" });
    // A server claims it (as a try does) and dies before it can say how it went.
    await t.db.execute(sql`update mail_outbox set attempts = 1, next_attempt_at = now() + make_interval(secs => ${SEND_LEASE_SECONDS}) where id = ${id}`);
    // Its job (due at once) finds it in the dead server's hands and waits for the lease's end.
    expect(await runMailJobs(t.db, minutesFromNow(1))).toBe(0);
    expect(await jobsOf(id)).toEqual([(await row(id)).nextAttemptAt]);
    expect(await runMailJobs(t.db, minutesFromNow(SEND_LEASE_SECONDS / 60 + 1))).toBe(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("without SMTP it is kept in the outbox, as sent, as before", async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    const r = await sendMail(t.db, { to: "kept@example.test", subject: "Kept", text: "x" });
    expect(r).toMatchObject({ transport: "outbox", status: "sent" });
    expect(await row(r.id)).toMatchObject({ transport: "outbox", status: "sent", attempts: 0 });
  });
});

describe("two workers", () => {
  it("never send one mail twice, even when the relay is slow and two tries of each mail overlap", async () => {
    smtp.mode.delayMs = 25;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await queueMail(t.db, { to: `w${i}@example.test`, subject: `W${i}`, text: "x" })).id);
    // Each mail tried by two servers at once (a job and an inline send after a commit, or a job
    // run twice after a crash): the row's claim lets one of them send it.
    const tries = await Promise.all(ids.flatMap((id) => [deliverQueuedMail(t.db, id), deliverQueuedMail(other, id)]));
    expect(tries.filter((o) => o === "sent")).toHaveLength(40);
    expect(tries.filter((o) => o === "skipped")).toHaveLength(40);
    expect(smtp.received).toHaveLength(40);
    expect(new Set(smtp.received.map((m) => m.to[0])).size).toBe(40);
    const rows = await t.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
    expect(rows.every((m) => m.status === "sent" && m.attempts === 1)).toBe(true);
  });
});

describe("sign-in links in the send log", () => {
  it("are kept only while the mail waits to go out, hidden from admins meanwhile, and removed once sent", async () => {
    await smtp.stop();
    const link = "http://localhost:3000/api/auth/reset-password/secret-token-42?callbackURL=%2Fauth%2Freset-password";
    const sent = await sendPasswordResetMail(t.db, { email: "reset@example.test" }, link);
    expect(sent.status).toBe("retrying");
    expect((await row(sent.id)).text).toContain("secret-token-42"); // a retry needs it
    const shown = await getOutboxMessage(t.db, sent.id);
    expect(shown!.text).not.toContain("secret-token-42");
    expect(shown!.html).not.toContain("secret-token-42");
    expect(shown!.text).toContain(REDACTED_LINK);

    await smtp.start();
    expect(await runMailJobs(t.db, minutesFromNow(2))).toBe(1);
    expect(smtp.received[0]!.raw).toContain("secret-token-42");
    const stored = await row(sent.id);
    expect(stored.status).toBe("sent");
    expect(stored.text).not.toContain("secret-token-42");
    expect(stored.html).not.toContain("secret-token-42");
    expect(stored.text).toContain(REDACTED_LINK);
  });

  it("a given-up mail's link is removed too, and it cannot be resent (the link has expired)", async () => {
    smtp.mode.reject = "550 no such user";
    const sent = await sendPasswordResetMail(t.db, { email: "gone@example.test" }, "http://localhost:3000/api/auth/reset-password/tok-99");
    for (let i = 0; i < MAX_ATTEMPTS; i++) await runMailJobs(t.db, minutesFromNow(24 * 60));
    const r = await row(sent.id);
    expect(r.status).toBe("given_up");
    expect(r.text).not.toContain("tok-99");
    expect(await resendMail(t.db, sent.id)).toMatchObject({ ok: false, kind: "conflict", message: expect.stringMatching(/request a new one/) });
  });
});

describe("/admin/outbox", () => {
  it("lists each mail's state, filters by state, counts the failed ones on the sidebar, and resends by hand", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);
    const ok = await sendMail(t.db, { to: "fine@example.test", subject: "Fine", text: "x" });
    smtp.mode.reject = "550 mailbox full";
    const failed = await sendMail(t.db, { to: "full@example.test", subject: "Full", text: "x" });
    await t.db.update(mailOutbox).set({ status: "given_up", attempts: MAX_ATTEMPTS, nextAttemptAt: null }).where(eq(mailOutbox.id, failed.id));
    const retrying = await sendMail(t.db, { to: "later@example.test", subject: "Later", text: "x" });

    const all = await run(outboxLoader, get("/admin/outbox", { cookie }));
    expect(all.data.messages.map((m: { subject: string; status: string }) => [m.subject, m.status])).toEqual([
      ["Later", "retrying"],
      ["Full", "given_up"],
      ["Fine", "sent"],
    ]);
    expect(all.data.messages[0].error).toMatch(/550 mailbox full/);
    expect(all.data.messages[0].nextAttemptAt).not.toBeNull();
    const failedOnly = await run(outboxLoader, get("/admin/outbox?state=failed", { cookie }));
    expect(failedOnly.data.messages.map((m: { subject: string }) => m.subject)).toEqual(["Later", "Full"]);
    const givenUp = await run(outboxLoader, get("/admin/outbox?state=given_up", { cookie }));
    expect(givenUp.data.messages.map((m: { subject: string }) => m.subject)).toEqual(["Full"]);
    expect((await run(outboxLoader, get("/admin/outbox?state=bogus", { cookie }))).data.filter).toBe("all");
    expect((await run(layoutLoader, get("/admin/outbox", { cookie }))).data.failedMails).toBe(2);

    // The relay takes mail again; 'Resend' on the given-up one sends it now.
    smtp.mode.reject = null;
    const resent = await run(outboxAction, post("/admin/outbox", { intent: "resend", id: failed.id }, { cookie }));
    expect(resent).toMatchObject({ status: 200, data: { ok: true, message: "Sent to full@example.test." } });
    expect(smtp.received.map((m) => m.to[0])).toEqual(["fine@example.test", "full@example.test"]);
    expect(await row(failed.id)).toMatchObject({ status: "sent", error: null });
    expect((await run(layoutLoader, get("/admin/outbox", { cookie }))).data.failedMails).toBe(1);

    // Resending what went out already, or a mail that does not exist, is refused with a message.
    const again = await run(outboxAction, post("/admin/outbox", { intent: "resend", id: ok.id }, { cookie }));
    expect(again).toMatchObject({ status: 409, data: { ok: false, message: "This mail has been sent already." } });
    const missing = await run(outboxAction, post("/admin/outbox", { intent: "resend", id: "00000000-0000-4000-8000-000000000000" }, { cookie }));
    expect(missing.status).toBe(404);
    expect((await run(outboxAction, post("/admin/outbox", { intent: "resend", id: "nope" }, { cookie }))).status).toBe(404);
    expect((await run(outboxAction, post("/admin/outbox", { intent: "drop", id: retrying.id }, { cookie }))).status).toBe(400);

    // The mail's own page shows its state and its HTML.
    const page = await run(messageLoader, get(`/admin/outbox/${retrying.id}`, { cookie }), { id: retrying.id });
    expect(page.data.message).toMatchObject({ status: "retrying", attempts: 1 });

    // A customer can neither read nor resend.
    const customer = await makeCustomer(t.db);
    const theirs = await sessionCookie(t.db, customer.id);
    await expect(run(outboxAction, post("/admin/outbox", { intent: "resend", id: retrying.id }, { cookie: theirs }))).resolves.toMatchObject({ status: 403 });
    expect(await row(retrying.id)).toMatchObject({ attempts: 1 });
  });

});
