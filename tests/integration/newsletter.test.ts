import { beforeEach, describe, expect, it } from "vitest";
import { loader as exportLoader } from "~/routes/admin/newsletter-export";
import { loader as listLoader } from "~/routes/admin/newsletter";
import { action } from "~/routes/resources/newsletter";
import { newsletterSubscriptions, rateLimits } from "~/server/platform/db/schema";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args } from "./route-args";

const t = useTestDatabase();

function post(fields: Record<string, string>, ip = "198.51.100.20") {
  return new Request("http://localhost:3000/resources/newsletter", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "x-shop-client-ip": ip, "content-type": "application/x-www-form-urlencoded" },
  });
}

async function subscribeWithScript(email: string, ip?: string) {
  const result = (await action(args(post({ email, js: "1" }, ip)))) as any;
  return { status: result.init?.status ?? 200, body: result.data };
}

const emails = async () => (await t.db.select().from(newsletterSubscriptions)).map((r) => r.email);

beforeEach(async () => {
  await t.db.delete(newsletterSubscriptions);
  await t.db.delete(rateLimits);
});

describe("newsletter box", () => {
  it("stores an address once, whatever its letter case, with the same clear confirmation", async () => {
    const first = await subscribeWithScript("Sam.Lee@Example.test");
    expect(first).toEqual({ status: 200, body: { ok: true, message: "Thanks for subscribing! You're on the list." } });
    const again = await subscribeWithScript("  sam.lee@example.TEST ");
    expect(again).toEqual(first);
    expect(await emails()).toEqual(["Sam.Lee@Example.test"]);
  });

  it("refuses an invalid or missing email", async () => {
    for (const [email, message] of [
      ["", "Enter your email address"],
      ["sam", "Enter a valid email address"],
      ["sam@example.test\r\nBcc: x@y.test", "Enter a valid email address"],
      [`${"a".repeat(250)}@example.test`, "Enter a valid email address"],
    ] as const) {
      expect(await subscribeWithScript(email)).toEqual({ status: 400, body: { ok: false, error: message } });
    }
    expect(await emails()).toEqual([]);
  });

  it("works without JavaScript: a plain post returns to the page with the outcome", async () => {
    const ok = (await action(
      args(post({ email: "plain@example.test", redirectTo: "/shop?category=Bedding" })),
    )) as Response;
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/shop?category=Bedding&newsletter=subscribed#newsletter");
    const bad = (await action(args(post({ email: "nope", redirectTo: "//evil.example/phish" })))) as Response;
    expect(bad.headers.get("location")).toBe("/?newsletter=invalid#newsletter");
    // A dot segment that a URL resolves into "//evil.example" is refused too.
    for (const sneaky of ["/.//evil.example/phish", "/./\\evil.example", "/x/..//evil.example"]) {
      const res = (await action(args(post({ email: "nope", redirectTo: sneaky })))) as Response;
      expect(res.headers.get("location")).toBe("/?newsletter=invalid#newsletter");
    }
    expect(await emails()).toEqual(["plain@example.test"]);
  });

  it("limits each client address to 5 attempts per 15 minutes", async () => {
    for (let i = 0; i < 5; i++)
      expect((await subscribeWithScript(`p${i}@example.test`, "203.0.113.9")).status).toBe(200);
    const limited = await subscribeWithScript("p5@example.test", "203.0.113.9");
    expect(limited).toEqual({ status: 429, body: { ok: false, error: "Too many attempts, try again in 15 minutes" } });
    expect(await emails()).toHaveLength(5);
  });
});

describe("admin newsletter list and CSV export", () => {
  it("lists subscribers and exports them as CSV, safe for spreadsheets", async () => {
    const admin = await makeAdmin(t.db);
    await t.db.insert(newsletterSubscriptions).values([
      { email: "ann@example.test", createdAt: new Date("2030-01-02T03:04:05Z") },
      { email: "-bob@example.test", createdAt: new Date("2030-02-02T03:04:05Z") },
    ]);
    const list = await listLoader(args(await requestAs(t.db, admin, "/admin/newsletter")));
    expect(list.total).toBe(2);
    expect(list.subscriptions.map((s) => s.email)).toEqual(["-bob@example.test", "ann@example.test"]);

    const res = await exportLoader(args(await requestAs(t.db, admin, "/admin/newsletter/export")));
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(await res.text()).toBe(
      'email,subscribed_at\r\n"ann@example.test","2030-01-02T03:04:05.000Z"\r\n"\'-bob@example.test","2030-02-02T03:04:05.000Z"\r\n',
    );
  });

  it("is closed to anonymous visitors and customers", async () => {
    const customer = await makeCustomer(t.db);
    await expect(exportLoader(args(await requestAs(t.db, null, "/admin/newsletter/export")))).rejects.toMatchObject({
      status: 302,
    });
    await expect(exportLoader(args(await requestAs(t.db, customer, "/admin/newsletter/export")))).rejects.toMatchObject(
      {
        init: { status: 403 },
      },
    );
    await expect(listLoader(args(await requestAs(t.db, customer, "/admin/newsletter")))).rejects.toMatchObject({
      init: { status: 403 },
    });
  });
});
