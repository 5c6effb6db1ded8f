import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { mailOutbox, newsletterSubscriptions } from "~/server/platform/db/schema";
import { asAdmin } from "../factories/users";
import { launchBrowser, useShop } from "./harness";

const shop = useShop();
let noScriptBrowser: Browser;

beforeAll(async () => {
  noScriptBrowser = await launchBrowser();
});
afterAll(async () => {
  await noScriptBrowser?.close();
});

/** Navigations get extra time: the 2-core machine is shared by several test runs. */
function patient<T extends Page>(page: T): T {
  page.setDefaultNavigationTimeout(30_000);
  return page;
}

async function pageWithoutJavaScript() {
  const context = await noScriptBrowser.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
  return patient(await context.newPage());
}

/** The confirmation link in the newsletter mail to this address (mailed just after the answer). */
async function confirmationLink(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const [mail] = await shop.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
    const link = mail?.text.match(/https?:\/\/\S+\/newsletter\/confirm\?\S+/)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail to ${to}`);
}

async function fillContactForm(page: Page, fields: { name: string; email: string; subject: string; message: string }) {
  await page.getByLabel("Name", { exact: true }).fill(fields.name);
  await page.getByLabel("Email", { exact: true }).fill(fields.email);
  await page.getByLabel("Subject", { exact: true }).fill(fields.subject);
  await page.getByLabel("Message", { exact: true }).fill(fields.message);
  await page.getByRole("button", { name: "Send Message" }).click();
}

describe("contact page", () => {
  it("shows contact details, phone hours, the reply promise and the FAQ answers", async () => {
    const page = patient(await shop.newPage());
    await page.goto("/contact");
    expect(await page.title()).toBe("Contact Us — Linen & Loft");
    await page.getByRole("heading", { name: "Contact Us", level: 1 }).waitFor();
    const text = await page.locator("main").textContent();
    for (const s of [
      "Mon-Fri 9am-6pm EST",
      "within 24 hours",
      "hello@linenandloft.test",
      "Standard shipping takes 3-5 business days.",
      "30-day returns on all items.",
      "A tracking number is sent by email once the order ships.",
    ]) {
      expect(text).toContain(s);
    }
  });

  it("sends a message that the admin finds in the inbox and the outbox, and marks handled", async () => {
    const visitor = patient(await shop.newPage());
    await visitor.goto("/contact");
    await fillContactForm(visitor, {
      name: "Maya Reed",
      email: "maya@example.test",
      subject: "Do you ship to Canada?",
      message: "Hello!\nI'd love a set of the stone-washed sheets.",
    });
    await visitor.locator("[data-sonner-toast]").filter({ hasText: "Message sent!" }).waitFor();
    // The form is emptied for the next message.
    expect(await visitor.getByLabel("Subject", { exact: true }).inputValue()).toBe("");

    const admin = patient(await asAdmin(shop));
    await admin.goto("/admin/inbox");
    await admin.getByRole("link", { name: "Do you ship to Canada?" }).click();
    await admin.getByRole("heading", { name: "Do you ship to Canada?" }).waitFor();
    expect(await admin.locator("article").textContent()).toContain("Maya Reed <maya@example.test>");
    expect(await admin.locator("article").textContent()).toContain("I'd love a set of the stone-washed sheets.");
    await admin.getByRole("button", { name: "Mark as handled" }).click();
    await admin.getByRole("button", { name: "Mark as open" }).waitFor();
    await admin.goto("/admin/inbox");
    await admin.getByText("No open messages. Everything has been handled.").waitFor();
    await admin.goto("/admin/inbox?status=handled");
    await admin.getByRole("link", { name: "Do you ship to Canada?" }).waitFor();

    await admin.goto("/admin/outbox");
    await admin.getByRole("link", { name: "Contact form: Do you ship to Canada?" }).click();
    expect(await admin.locator("main, body").first().textContent()).toContain("hello@linenandloft.test");
  });

  it("refuses an invalid email and keeps what was typed", async () => {
    const page = patient(await shop.newPage());
    await page.goto("/contact");
    // "a@b" passes the browser's own email check but not the shop's.
    await fillContactForm(page, { name: "Ann", email: "a@b", subject: "Hi", message: "Typed with care" });
    await page.getByText("Enter a valid email address").waitFor();
    await page
      .locator("[data-sonner-toast]")
      .filter({ hasText: "Failed to send message. Please try again." })
      .waitFor();
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe("Typed with care");
  });

  it("works without JavaScript", async () => {
    const page = await pageWithoutJavaScript();
    await page.goto("/contact");
    await fillContactForm(page, {
      name: "No Script",
      email: "noscript@example.test",
      subject: "Plain HTML",
      message: "Still works.",
    });
    await page
      .getByRole("status")
      .filter({ hasText: "Message sent! We'll get back to you within 24 hours." })
      .waitFor();
  });
});

describe("newsletter box", () => {
  it("subscribes once even when the same address is entered twice in different case", async () => {
    const page = patient(await shop.newPage());
    await page.goto("/contact");
    const box = page.getByLabel("Email address");
    await box.fill("Jamie.Fox@Example.test");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thanks for subscribing! You're on the list.").waitFor();
    await box.fill("jamie.fox@example.TEST");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thanks for subscribing! You're on the list.").waitFor();
    await page.getByText("Check your inbox to confirm your subscription.").waitFor();
    const rows = await shop.db.select().from(newsletterSubscriptions);
    expect(rows.map((r) => r.email.toLowerCase())).toEqual(["jamie.fox@example.test"]);

    // Double opt-in: the address is listed once the link in the mail is followed and confirmed.
    const confirm = await confirmationLink("Jamie.Fox@Example.test");
    await page.goto(confirm);
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await page.getByText("Your subscription is confirmed. Thanks for subscribing!").waitFor();

    const admin = patient(await asAdmin(shop));
    await admin.goto("/admin/newsletter");
    await admin.getByText("1 subscriber", { exact: false }).waitFor();
    const csv = await admin.request.get("/admin/newsletter/export");
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^"Jamie\.Fox@Example\.test","\d{4}-/);
  });

  it("works without JavaScript and refuses an invalid address", async () => {
    const page = await pageWithoutJavaScript();
    await page.goto("/");
    await page.getByLabel("Email address").fill("plain-html@example.test");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/newsletter=subscribed/);
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByText("Thanks for subscribing! You're on the list.").waitFor();
    await page.getByText("Check your inbox to confirm your subscription.").waitFor();
    // The mailed links' pages are plain forms too: confirm, then unsubscribe.
    const confirm = await confirmationLink("plain-html@example.test");
    await page.goto(confirm);
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await page.getByText("Your subscription is confirmed. Thanks for subscribing!").waitFor();
    const [mail] = await shop.db.select().from(mailOutbox).where(eq(mailOutbox.to, "plain-html@example.test"));
    await page.goto(mail!.text.match(/https?:\/\/\S+\/newsletter\/unsubscribe\?\S+/)![0]);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByText("You're unsubscribed. You won't get the newsletter any more.").waitFor();
    expect(await shop.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, "plain-html@example.test"))).toEqual([]);

    const withScript = patient(await shop.newPage());
    await withScript.goto("/");
    await withScript.getByLabel("Email address").fill("x@y");
    await withScript.getByRole("button", { name: "Subscribe" }).click();
    await withScript.getByText("Enter a valid email address").waitFor();
  });
});
