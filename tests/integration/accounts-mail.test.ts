import { desc } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loader as outboxLoader } from "~/routes/admin/outbox/index";
import { loader as messageLoader } from "~/routes/admin/outbox/message";
import { mailOutbox } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import { sendMail } from "~/server/platform/mail/mail.server";
import { makeAdmin, sessionCookie } from "../factories/users";
import { freePort } from "../e2e/harness";
import { useTestDatabase } from "../setup/database";
import { get, run } from "./accounts-helpers";

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (d: Buffer) => (raw += d.toString()));
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("mail through SMTP", () => {
  const t = useTestDatabase();
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });
  afterEach(() => {
    delete process.env.SMTP_URL;
    resetEnvCache();
  });

  it("delivers with SMTP_URL set and records it as sent", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    resetEnvCache();
    const r = await sendMail(t.db, { to: "ann@example.test", subject: "Hello\r\nBcc: evil@example.test", text: "Line one\nhttps://shop.test/x", kind: "test" });
    expect(r.transport).toBe("smtp");
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(["ann@example.test"]);
    expect(smtp.received[0]!.from).toBe("hello@linenandloft.test");
    // A subject cannot smuggle in a header.
    expect(smtp.received[0]!.raw).toMatch(/^Subject: Hello Bcc: evil@example\.test$/m);
    expect(smtp.received[0]!.raw).not.toMatch(/^Bcc:/m);
    const [row] = await t.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(1);
    expect(row).toMatchObject({ transport: "smtp", error: null, to: "ann@example.test" });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("records a failed delivery and says so, when the mail server is down: the mail waits for its next try", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    resetEnvCache();
    await expect(sendMail(t.db, { to: "bob@example.test", subject: "Lost", text: "x" })).resolves.toMatchObject({ status: "retrying" });
    const [row] = await t.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(1);
    expect(row).toMatchObject({ transport: "smtp", to: "bob@example.test", sentAt: null, status: "retrying" });
    expect(row!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(row!.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it("keeps mail in the outbox without SMTP_URL", async () => {
    const r = await sendMail(t.db, { to: "cy@example.test", subject: "Kept", text: "x" });
    expect(r.transport).toBe("outbox");
  });
});

describe("the admin outbox", () => {
  const t = useTestDatabase();

  it("lists mail newest first with recipient, subject and time, and opens one with its links", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);
    await t.db.insert(mailOutbox).values([
      { to: "old@example.test", from: "shop", subject: "Older", text: "a", createdAt: new Date("2025-01-01T00:00:00Z") },
      { to: "new@example.test", from: "shop", subject: "Newer <b>bold</b>", text: "Open https://shop.test/confirm?t=1 now.", createdAt: new Date("2025-02-01T00:00:00Z") },
    ]);
    const list = await run(outboxLoader, get("/admin/outbox", { cookie }));
    expect(list.data.messages.map((m: { subject: string }) => m.subject)).toEqual(["Newer <b>bold</b>", "Older"]);
    expect(list.data.messages[0]).toMatchObject({ to: "new@example.test", createdAt: "2025-02-01T00:00:00.000Z" });
    expect(list.data.total).toBe(2);

    const id = list.data.messages[0].id as string;
    const one = await run(messageLoader, get(`/admin/outbox/${id}`, { cookie }), { id });
    expect(one.data.message).toMatchObject({ subject: "Newer <b>bold</b>", text: "Open https://shop.test/confirm?t=1 now." });
    // No HTML part stored: the page shows the text only.
    expect(one.data.message.html).toBeNull();

    expect((await run(messageLoader, get("/admin/outbox/nope", { cookie }), { id: "nope" })).status).toBe(404);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await run(messageLoader, get(`/admin/outbox/${missing}`, { cookie }), { id: missing })).status).toBe(404);
  });

  it("pages through a long outbox", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);
    await t.db.insert(mailOutbox).values(Array.from({ length: 120 }, (_, i) => ({ to: `p${i}@example.test`, from: "shop", subject: `Bulk ${i}`, text: "x" })));
    const page3 = await run(outboxLoader, get("/admin/outbox?page=3", { cookie }));
    expect(page3.data.page).toBe(3);
    expect(page3.data.pages).toBeGreaterThanOrEqual(3);
    expect((await run(outboxLoader, get("/admin/outbox?page=abc", { cookie }))).data.page).toBe(1);
  });
});
