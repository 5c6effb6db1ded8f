import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as emailsAction } from "~/routes/admin/site-settings-emails";
import { mailOutbox, siteSettings } from "~/server/platform/db/schema";
import { sendConfirmationMail } from "~/server/people/auth/auth-mails.server";
import { MAIL_TEMPLATES_KEY } from "~/server/platform/mail/mail-settings.server";
import { makeAdmin, makeCustomer, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { post, run } from "./accounts-helpers";

const t = useTestDatabase();

async function asAdmin() {
  const admin = await makeAdmin(t.db);
  return { admin, cookie: await sessionCookie(t.db, admin.id) };
}

type Answer = { ok: boolean; message: string; preview?: { subject: string; html: string; text: string }; fieldErrors?: Record<string, string> };

/** POST to Site Settings → Emails: the JSON answer and its status. */
async function emails(cookie: string, fields: Record<string, string>) {
  const response = (await emailsAction({ request: post("/admin/site-settings/emails", fields, { cookie }), params: {}, context: {} } as never)) as Response;
  return { status: response.status, body: (await response.json()) as Answer };
}

describe("Site Settings → Emails", () => {
  it("previews the unsaved subject and intro, placeholders filled, script and HTML escaped", async () => {
    const { cookie } = await asAdmin();
    const { status, body } = await emails(cookie, {
      intent: "preview",
      kind: "order-confirmation",
      subject: "We got it: {orderNumber}",
      intro: "Hi {name}! <script>alert('x')</script> <b>bold</b>",
    });
    expect(status).toBe(200);
    expect(body.preview!.subject).toBe("We got it: LL-SAMPLE-0001");
    expect(body.preview!.html).toContain("Hi Alex! &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt;");
    expect(body.preview!.html).not.toContain("<script>");
    expect(body.preview!.html).toContain('data-money="total"');
    expect(body.preview!.text).toContain("Hi Alex! <script>alert('x')</script> <b>bold</b>");
    // A preview saves nothing.
    expect(await t.db.select().from(siteSettings).where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY))).toEqual([]);
  });

  it("saves one mail's texts, which the next real mail uses; blank fields go back to the defaults", async () => {
    const { cookie } = await asAdmin();
    expect((await emails(cookie, { intent: "save", kind: "email-verification", subject: "One step left at {shopName}", intro: "Hello {name},\nplease confirm." })).body).toEqual({
      ok: true,
      message: "Email saved",
    });
    expect((await emails(cookie, { intent: "save", kind: "order-shipped", subject: "", intro: "On its way!" })).status).toBe(200);

    await sendConfirmationMail(t.db, { email: "new@example.test", name: "Maya Okafor" }, "http://localhost:3000/api/auth/verify-email?token=abc");
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "new@example.test"));
    expect(mail!.subject).toBe("One step left at Linen & Loft");
    expect(mail!.text).toContain("Hello Maya,\nplease confirm.");
    expect(mail!.html).toContain("Hello Maya,<br/>please confirm.");

    // Saving one mail kept the other; a blank save puts the defaults back.
    const [row] = await t.db.select().from(siteSettings).where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY));
    expect(row!.settingValue).toEqual({
      "email-verification": { subject: "One step left at {shopName}", intro: "Hello {name},\nplease confirm." },
      "order-shipped": { intro: "On its way!" },
    });
    await emails(cookie, { intent: "save", kind: "email-verification", subject: "", intro: "" });
    const [after] = await t.db.select().from(siteSettings).where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY));
    expect(after!.settingValue).toEqual({ "order-shipped": { intro: "On its way!" } });
  });

  it("sends a test, with the sample order, to the signed-in admin; it is in the outbox as HTML and text", async () => {
    const { admin, cookie } = await asAdmin();
    const { body } = await emails(cookie, { intent: "test", kind: "order-shipped", subject: "", intro: "Your parcel left today." });
    expect(body).toEqual({ ok: true, message: `Test sent to ${admin.email}: it is in the Outbox.` });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, admin.email));
    expect(mail).toMatchObject({ subject: "Order LL-SAMPLE-0001 has shipped", kind: "test:order-shipped", status: "sent" });
    expect(mail!.html).toContain("Your parcel left today.");
    expect(mail!.text).toContain("Tracking number: 1Z999AA10123456784");
  });

  it("refuses bad input with the field and a message, never a 500", async () => {
    const { cookie } = await asAdmin();
    const stored = () => t.db.select().from(siteSettings).where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY));
    const before = await stored();
    const twoLines = await emails(cookie, { intent: "save", kind: "order-confirmation", subject: "Hi\r\nBcc: x@example.test", intro: "" });
    expect(twoLines).toEqual({ status: 400, body: { ok: false, message: "Subject must be one line", fieldErrors: { subject: "Subject must be one line" } } });
    const long = await emails(cookie, { intent: "save", kind: "order-confirmation", subject: "", intro: "x".repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.fieldErrors).toEqual({ intro: "Intro must be at most 1000 characters" });
    expect((await emails(cookie, { intent: "save", kind: "newsletter", subject: "", intro: "" })).body.message).toBe("Choose one of the shop's mails");
    expect((await emails(cookie, { intent: "publish", kind: "order-confirmation", subject: "", intro: "" })).status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it("is for admins only", async () => {
    const customer = await makeCustomer(t.db);
    const cookie = await sessionCookie(t.db, customer.id);
    const mails = async () => (await t.db.select().from(mailOutbox)).length;
    const before = await mails();
    const out = await run(emailsAction, post("/admin/site-settings/emails", { intent: "save", kind: "order-confirmation", subject: "Hacked", intro: "" }, { cookie }));
    expect(out.status).toBe(403);
    const anonymous = await run(emailsAction, post("/admin/site-settings/emails", { intent: "test", kind: "order-confirmation", subject: "", intro: "" }));
    expect(anonymous.status).toBe(302);
    expect(await mails()).toBe(before);
  });
});
