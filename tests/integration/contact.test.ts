import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { action as messageAction, loader as messageLoader } from "~/routes/admin/inbox/message";
import { loader as inboxLoader } from "~/routes/admin/inbox/index";
import { action, loader } from "~/routes/store/contact";
import { contactMessages, mailOutbox, rateLimits } from "~/server/platform/db/schema";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args } from "./route-args";

const t = useTestDatabase();

const valid = {
  name: "Maya Reed",
  email: "maya@example.test",
  subject: "Duvet sizes",
  message: "Do you make a super king?",
};

function contactRequest(fields: Record<string, string>, ip = "198.51.100.7") {
  const body = new URLSearchParams(fields);
  return new Request("http://localhost:3000/contact", {
    method: "POST",
    body,
    headers: { "x-shop-client-ip": ip, "content-type": "application/x-www-form-urlencoded" },
  });
}

/** Calls the contact action and unwraps React Router's data() into status and body. */
async function submit(fields: Record<string, string>, ip?: string) {
  const result = (await action(args(contactRequest(fields, ip)))) as any;
  return { status: result.init?.status ?? 200, body: result.data };
}

beforeEach(async () => {
  await t.db.delete(contactMessages);
  await t.db.delete(mailOutbox);
  await t.db.delete(rateLimits);
});

describe("contact page", () => {
  it("shows the shop's address for contact details", async () => {
    expect(await loader()).toEqual({ shopEmail: "hello@linenandloft.test", canonical: "http://localhost:3000/contact" });
  });

  it("stores the message and mails the shop address, answering 'Message sent!'", async () => {
    const res = await submit(valid);
    expect(res).toEqual({ status: 200, body: { ok: true, message: "Message sent!" } });
    const [stored] = await t.db.select().from(contactMessages);
    expect(stored).toMatchObject({ ...valid, handled: false });
    const [mail] = await t.db.select().from(mailOutbox);
    expect(mail).toMatchObject({
      to: "hello@linenandloft.test",
      subject: "Contact form: Duvet sizes",
      kind: "contact",
    });
    expect(mail!.text).toContain("From: Maya Reed <maya@example.test>");
    expect(mail!.text).toContain("Do you make a super king?");
  });

  it("requires every field and a valid email, keeping what was typed", async () => {
    const res = await submit({ name: " ", email: "not-an-email", subject: "", message: "" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Failed to send message. Please try again.");
    expect(res.body.fieldErrors).toEqual({
      name: "Name is required",
      email: "Enter a valid email address",
      subject: "Subject is required",
      message: "Message is required",
    });
    expect(res.body.values.email).toBe("not-an-email");
    for (const email of ["a@b", "maya@example.test\r\nBcc: x@evil.test", "<script>@x.test"]) {
      expect((await submit({ ...valid, email })).body.fieldErrors.email).toBe("Enter a valid email address");
    }
    expect(await t.db.select().from(contactMessages)).toHaveLength(0);
    expect(await t.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("accepts a 10 KB message whole, and clearly refuses one over 20,000 characters", async () => {
    const tenKb = "Linen is lovely. ".repeat(603).slice(0, 10_240) + "END";
    expect((await submit({ ...valid, message: tenKb })).status).toBe(200);
    const [stored] = await t.db.select().from(contactMessages);
    expect(stored!.message).toBe(tenKb.trim());

    const res = await submit({ ...valid, message: "x".repeat(20_001) });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.message).toBe("Message must be at most 20,000 characters");

    const huge = contactRequest({ ...valid, message: "x".repeat(300_000) });
    const tooBig = (await action(
      args(new Request(huge, { headers: { ...Object.fromEntries(huge.headers), "content-length": "300100" } })),
    )) as any;
    expect(tooBig.init.status).toBe(413);
    expect(tooBig.data).toEqual({
      ok: false,
      error: "Failed to send message. Please try again.",
      reason: "Your message is too long.",
    });
    expect(await t.db.select().from(contactMessages)).toHaveLength(1);
  });

  it("makes header injection through the subject or name impossible", async () => {
    const res = await submit({
      ...valid,
      name: "Eve\r\nBcc: everyone@example.test",
      subject: "Hello\r\nBcc: victim@example.test\r\nContent-Type: text/html",
    });
    expect(res.status).toBe(200);
    const [stored] = await t.db.select().from(contactMessages);
    expect(stored!.subject).toBe("Hello Bcc: victim@example.test Content-Type: text/html");
    expect(stored!.name).toBe("Eve Bcc: everyone@example.test");
    const [mail] = await t.db.select().from(mailOutbox);
    expect(mail!.subject).not.toMatch(/[\r\n]/);
    expect(mail!.to).toBe("hello@linenandloft.test");
  });

  it("limits each address to 5 messages per 15 minutes", async () => {
    for (let i = 0; i < 5; i++) expect((await submit(valid, "203.0.113.50")).status).toBe(200);
    const limited = await submit(valid, "203.0.113.50");
    expect(limited.status).toBe(429);
    expect(limited.body.reason).toBe("Too many attempts, try again in 15 minutes");
    expect((await submit(valid, "203.0.113.51")).status).toBe(200);
    expect(await t.db.select().from(contactMessages)).toHaveLength(6);
  });

  it("answers 'Failed to send message. Please try again.' when the message cannot be stored", async () => {
    await t.db.execute(sql`alter table contact_messages rename to contact_messages_gone`);
    try {
      const res = await submit(valid);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ ok: false, error: "Failed to send message. Please try again." });
      expect(res.body.values).toEqual(valid);
    } finally {
      await t.db.execute(sql`alter table contact_messages_gone rename to contact_messages`);
    }
  });
});

describe("admin inbox", () => {
  it("lists open messages newest first, opens one, and marks it handled", async () => {
    const admin = await makeAdmin(t.db);
    await submit({ ...valid, subject: "First" });
    await submit({ ...valid, subject: "Second <b>bold</b>" });

    const list = await inboxLoader(args(await requestAs(t.db, admin, "/admin/inbox")));
    expect(list.filter).toBe("open");
    expect(list.messages.map((m) => m.subject)).toEqual(["Second <b>bold</b>", "First"]);
    expect(list.openCount).toBe(2);

    const id = list.messages[1]!.id;
    const opened = await messageLoader(args(await requestAs(t.db, admin, `/admin/inbox/${id}`), { messageId: id }));
    expect(opened.message).toMatchObject({ subject: "First", message: valid.message, handled: false });

    const form = new URLSearchParams({ intent: "handled" });
    const req = await requestAs(t.db, admin, `/admin/inbox/${id}`, { method: "POST", body: form });
    await messageAction(args(req, { messageId: id }));
    const [row] = await t.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(row!.handled).toBe(true);
    expect(row!.handledAt).toBeInstanceOf(Date);

    const open = await inboxLoader(args(await requestAs(t.db, admin, "/admin/inbox")));
    expect(open.messages.map((m) => m.subject)).toEqual(["Second <b>bold</b>"]);
    const handled = await inboxLoader(args(await requestAs(t.db, admin, "/admin/inbox?status=handled")));
    expect(handled.messages.map((m) => m.subject)).toEqual(["First"]);

    const reopen = await requestAs(t.db, admin, `/admin/inbox/${id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "open" }),
    });
    await messageAction(args(reopen, { messageId: id }));
    const [again] = await t.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(again).toMatchObject({ handled: false, handledAt: null });
  });

  it("answers 404 for a missing or malformed message id", async () => {
    const admin = await makeAdmin(t.db);
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      await expect(
        messageLoader(args(await requestAs(t.db, admin, `/admin/inbox/${id}`), { messageId: id })),
      ).rejects.toMatchObject({
        init: { status: 404 },
      });
    }
  });

  it("is closed to anonymous visitors and customers", async () => {
    await submit(valid);
    const [row] = await t.db.select().from(contactMessages);
    const customer = await makeCustomer(t.db);
    await expect(inboxLoader(args(await requestAs(t.db, null, "/admin/inbox")))).rejects.toMatchObject({ status: 302 });
    await expect(inboxLoader(args(await requestAs(t.db, customer, "/admin/inbox")))).rejects.toMatchObject({
      init: { status: 403 },
    });
    const req = await requestAs(t.db, customer, `/admin/inbox/${row!.id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "handled" }),
    });
    await expect(messageAction(args(req, { messageId: row!.id }))).rejects.toMatchObject({ init: { status: 403 } });
    const [after] = await t.db.select().from(contactMessages);
    expect(after!.handled).toBe(false);
  });
});
