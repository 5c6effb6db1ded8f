import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action } from "~/routes/store/contact";
import { contactMessages, mailOutbox, rateLimits } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import { sendPasswordResetMail } from "~/server/people/auth/auth-mails.server";
import { REDACTED_LINK, sendMail } from "~/server/platform/mail/mail.server";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let rejectRecipients = false;
let server: SMTPServer;
let port: number;

/** The header block of a raw message, with folded lines joined. */
function headers(raw: string): Record<string, string> {
  const head = raw.split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, " ");
  const out: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    out[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

beforeAll(async () => {
  // A real SMTP server on 127.0.0.1 (no TLS offered, no auth), as a test double for the relay.
  server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejectRecipients) return callback(new Error("550 mailbox unavailable"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  resetEnvCache();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvCache();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  received.length = 0;
  rejectRecipients = false;
  await t.db.delete(contactMessages);
  await t.db.delete(mailOutbox);
  await t.db.delete(rateLimits);
});

function contact(fields: Record<string, string>) {
  const request = new Request("http://localhost:3000/contact", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "x-shop-client-ip": "198.51.100.99" },
  });
  return action({ request, params: {}, context: {}, url: new URL(request.url), pattern: "" } as any) as Promise<any>;
}

describe("mail over SMTP (SMTP_URL set), against a local SMTP server", () => {
  it("delivers the contact message to SHOP_EMAIL with Reply-To the sender, and records it as sent", async () => {
    const res = await contact({
      name: "Maya Reed",
      email: "maya@example.test",
      subject: "Hello\r\nBcc: victim@example.test",
      message: "Line one\nLine two",
    });
    expect(res.data).toEqual({ ok: true, message: "Message sent!" });
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe("hello@linenandloft.test");
    // Only the shop receives it: the injected Bcc never became a recipient or a header.
    expect(mail.to).toEqual(["hello@linenandloft.test"]);
    const h = headers(mail.raw);
    expect(h.subject).toBe("Contact form: Hello Bcc: victim@example.test");
    expect(h["reply-to"]).toBe("maya@example.test");
    expect(h.from).toContain("hello@linenandloft.test");
    expect(h.bcc).toBeUndefined();
    expect(mail.raw).toContain("Line one\r\nLine two");

    const [row] = await t.db.select().from(mailOutbox);
    expect(row).toMatchObject({ transport: "smtp", error: null, kind: "contact" });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("keeps the contact message and tells the sender it was sent when the relay refuses, recording the error", async () => {
    rejectRecipients = true;
    const res = await contact({ name: "Ann", email: "ann@example.test", subject: "Hi", message: "Hello" });
    expect(res.data).toEqual({ ok: true, message: "Message sent!" });
    expect(await t.db.select().from(contactMessages)).toHaveLength(1);
    const [row] = await t.db.select().from(mailOutbox);
    expect(row).toMatchObject({ transport: "smtp", sentAt: null, status: "retrying" });
    expect(row!.error).toMatch(/mailbox unavailable/);
  });

  it("sendMail keeps a mail the relay cannot take, to be retried, with the network's answer", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    resetEnvCache();
    try {
      await expect(sendMail(t.db, { to: "x@example.test", subject: "S", text: "T" })).resolves.toMatchObject({ status: "retrying" });
      const [row] = await t.db.select().from(mailOutbox);
      expect(row).toMatchObject({ to: "x@example.test", transport: "smtp", sentAt: null, status: "retrying", attempts: 1 });
      expect(row!.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      resetEnvCache();
    }
  });

  it("delivers a password-reset link but keeps it out of the outbox copy, where any admin could follow it", async () => {
    const link = "http://localhost:3000/auth/reset-password?token=secret-reset-token-123";
    await sendPasswordResetMail(t.db, { email: "cust@example.test" }, link);
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain("secret-reset-token-123");
    const [row] = await t.db.select().from(mailOutbox);
    expect(row).toMatchObject({ transport: "smtp", kind: "password-reset" });
    expect(row!.text).not.toContain("secret-reset-token-123");
    expect(row!.text).toContain(REDACTED_LINK);
  });
});
