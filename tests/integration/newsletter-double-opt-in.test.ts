import { createHmac } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as exportLoader } from "~/routes/admin/newsletter-export";
import { loader as listLoader } from "~/routes/admin/newsletter";
import { action as subscribeAction } from "~/routes/resources/newsletter";
import { action as linkAction, loader as linkLoader } from "~/routes/store/newsletter-link";
import { mailOutbox, newsletterSubscriptions, rateLimits } from "~/server/platform/db/schema";
import { newsletterMailsSettled } from "~/server/content/newsletter/newsletter.server";
import { getAuthSecret } from "~/server/platform/secrets.server";
import { makeAdmin, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { run } from "./accounts-helpers";
import { args } from "./route-args";

const t = useTestDatabase();

let ipCounter = 1;
async function subscribe(email: string) {
  const request = new Request("http://localhost:3000/resources/newsletter", {
    method: "POST",
    body: new URLSearchParams({ email, js: "1" }),
    headers: { "x-shop-client-ip": `203.0.113.${ipCounter++}`, "content-type": "application/x-www-form-urlencoded" },
  });
  const result = (await subscribeAction(args(request))) as any;
  await newsletterMailsSettled();
  return { status: result.init?.status ?? 200, body: result.data };
}

async function mailsTo(email: string) {
  await newsletterMailsSettled();
  return t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt));
}

/** The links in a mail, by what they do. */
function linksIn(text: string) {
  const links = [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
  const confirm = links.find((l) => l.includes("/newsletter/confirm?"));
  const unsubscribe = links.find((l) => l.includes("/newsletter/unsubscribe?"));
  return { confirm, unsubscribe };
}

/** Opening a link (GET, anonymous) and pressing its button (POST from that page, anonymous). */
const open = (link: string) => run(linkLoader, new Request(link), paramsOf(link));
const press = (link: string, body: Record<string, string> = {}) =>
  run(
    linkAction,
    new Request(link, { method: "POST", body: new URLSearchParams(body), headers: { "content-type": "application/x-www-form-urlencoded" } }),
    paramsOf(link),
  );
const paramsOf = (link: string) => ({ step: new URL(link).pathname.split("/").pop()! });

async function adminView() {
  const admin = await makeAdmin(t.db);
  const list = await listLoader(args(await requestAs(t.db, admin, "/admin/newsletter")));
  const csv = await (await exportLoader(args(await requestAs(t.db, admin, "/admin/newsletter/export")))).text();
  return { total: list.total, emails: list.subscriptions.map((s) => s.email), csvLines: csv.trim().split("\r\n") };
}

beforeEach(async () => {
  await t.db.delete(newsletterSubscriptions);
  await t.db.delete(rateLimits);
  await t.db.delete(mailOutbox);
});

describe("newsletter double opt-in", () => {
  it("lists an address only after the link in the confirmation mail is followed", async () => {
    expect(await subscribe("Pending.Person@example.test")).toEqual({ status: 200, body: { ok: true, message: "Thanks for subscribing! You're on the list." } });
    const [row] = await t.db.select().from(newsletterSubscriptions);
    expect(row).toMatchObject({ email: "Pending.Person@example.test", confirmedAt: null });
    expect(await adminView()).toEqual({ total: 0, emails: [], csvLines: ["email,subscribed_at"] });

    const mails = await mailsTo("Pending.Person@example.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Confirm your Linen & Loft newsletter subscription");
    const { confirm, unsubscribe } = linksIn(mails[0]!.text);
    expect(confirm).toMatch(/^http:\/\/localhost:3000\/newsletter\/confirm\?/);
    expect(unsubscribe).toMatch(/^http:\/\/localhost:3000\/newsletter\/unsubscribe\?/);

    // Opening the link shows a button and changes nothing (mail scanners open links too).
    const page = await open(confirm!);
    expect(page.data).toMatchObject({ step: "confirm", valid: true, email: "Pending.Person@example.test" });
    expect((await adminView()).total).toBe(0);

    const done = await press(confirm!);
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({ ok: true, message: "Your subscription is confirmed. Thanks for subscribing!" });
    const view = await adminView();
    expect(view.total).toBe(1);
    expect(view.emails).toEqual(["Pending.Person@example.test"]);
    expect(view.csvLines).toHaveLength(2);
    expect(view.csvLines[1]).toMatch(/^"Pending\.Person@example\.test","\d{4}-/);
    // Pressing it again is harmless.
    expect((await press(confirm!)).data).toMatchObject({ ok: true });
  });

  it("re-sends the confirmation at most once per 10 minutes, and never to a confirmed address", async () => {
    await subscribe("twice@example.test");
    await subscribe("TWICE@example.test");
    expect(await mailsTo("twice@example.test")).toHaveLength(1);
    await t.db.update(newsletterSubscriptions).set({ confirmationSentAt: sql`now() - interval '11 minutes'` });
    expect((await subscribe("twice@example.test")).status).toBe(200);
    await subscribe("twice@example.test");
    const mails = await mailsTo("twice@example.test");
    expect(mails).toHaveLength(2);

    await press(linksIn(mails[0]!.text).confirm!);
    await t.db.update(newsletterSubscriptions).set({ confirmationSentAt: sql`now() - interval '11 minutes'` });
    expect(await subscribe("twice@example.test")).toEqual({ status: 200, body: { ok: true, message: "Thanks for subscribing! You're on the list." } });
    expect(await mailsTo("twice@example.test")).toHaveLength(2);
  });

  it("unsubscribes from the link in any newsletter mail without signing in; a forged link does nothing", async () => {
    await subscribe("leaving@example.test");
    const [mail] = await mailsTo("leaving@example.test");
    const { confirm, unsubscribe } = linksIn(mail!.text);
    await press(confirm!);
    expect((await adminView()).total).toBe(1);

    const forged = new URL(unsubscribe!);
    forged.searchParams.set("token", "A".repeat(43));
    expect((await open(forged.href)).data).toMatchObject({ step: "unsubscribe", valid: false });
    const refused = await press(forged.href);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ ok: false, message: "This unsubscribe link is not valid. Use the link from one of our newsletter mails." });
    const otherId = new URL(unsubscribe!);
    otherId.searchParams.set("id", "00000000-0000-4000-8000-000000000000");
    expect((await press(otherId.href)).status).toBe(400);
    expect((await adminView()).total).toBe(1);

    expect((await open(unsubscribe!)).data).toMatchObject({ step: "unsubscribe", valid: true, email: "leaving@example.test" });
    const gone = await press(unsubscribe!);
    expect(gone.data).toMatchObject({ ok: true, message: "You're unsubscribed. You won't get the newsletter any more." });
    expect(await t.db.select().from(newsletterSubscriptions)).toEqual([]);
    // Again (or from an older mail): the same answer.
    expect((await press(unsubscribe!)).data).toMatchObject({ ok: true });
    // The confirmation link of a removed subscription does not bring it back.
    const stale = await press(confirm!);
    expect(stale.status).toBe(400);
    expect(stale.data.message).toBe("This confirmation link is not valid or no longer works. Subscribe again from the box at the bottom of any page.");
    expect((await adminView()).total).toBe(0);
  });

  it("signs its links with a key of their own, never the shop's auth secret itself; links mailed before still work", async () => {
    // What a link was signed with before: an HMAC under the auth secret that also signs sessions.
    const withAuthSecret = (step: string, id: string) => createHmac("sha256", getAuthSecret()).update(`newsletter-${step}:${id}`).digest("base64url");
    await subscribe("keyed@example.test");
    const [mail] = await mailsTo("keyed@example.test");
    const { confirm, unsubscribe } = linksIn(mail!.text);
    const id = new URL(confirm!).searchParams.get("id")!;
    expect(new URL(confirm!).searchParams.get("token")).not.toBe(withAuthSecret("confirm", id));
    expect(new URL(unsubscribe!).searchParams.get("token")).not.toBe(withAuthSecret("unsubscribe", id));
    // The new links work.
    expect((await open(confirm!)).data).toMatchObject({ step: "confirm", valid: true });

    // A link from a mail sent before the change: confirms, then unsubscribes.
    const oldConfirm = new URL(confirm!);
    oldConfirm.searchParams.set("token", withAuthSecret("confirm", id));
    expect((await press(oldConfirm.href)).data).toMatchObject({ ok: true });
    expect((await adminView()).total).toBe(1);
    // An old link's token for one step does not do the other.
    const crossed = new URL(unsubscribe!);
    crossed.searchParams.set("token", withAuthSecret("confirm", id));
    expect((await press(crossed.href)).status).toBe(400);
    const oldUnsubscribe = new URL(unsubscribe!);
    oldUnsubscribe.searchParams.set("token", withAuthSecret("unsubscribe", id));
    expect((await press(oldUnsubscribe.href)).data).toMatchObject({ ok: true });
    expect((await adminView()).total).toBe(0);
  });

  it("takes a mail program's one-click unsubscribe (RFC 8058)", async () => {
    await subscribe("one-click@example.test");
    const [mail] = await mailsTo("one-click@example.test");
    const { unsubscribe } = linksIn(mail!.text);
    const r = await press(unsubscribe!, { "List-Unsubscribe": "One-Click" });
    expect(r.status).toBe(200);
    expect(await t.db.select().from(newsletterSubscriptions)).toEqual([]);
  });

  it("puts an unsubscribe link in every newsletter mail", async () => {
    await subscribe("every@example.test");
    await t.db.update(newsletterSubscriptions).set({ confirmationSentAt: sql`now() - interval '11 minutes'` });
    await subscribe("every@example.test");
    const mails = await t.db.select().from(mailOutbox).where(sql`${mailOutbox.kind} like 'newsletter%'`);
    expect(mails).toHaveLength(2);
    for (const m of mails) expect(linksIn(m.text).unsubscribe).toBeDefined();
  });
});
