import { and, eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DATA_REQUEST_SENT } from "~/lib/personal-data";
import { action as settingAction } from "~/routes/admin/site-settings-privacy";
import { action as yourDataAction } from "~/routes/store/your-data";
import { getRetentionSetting } from "~/server/people/index.server";
import { mailOutbox, verification } from "~/server/platform/db/schema";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, settle } from "./admin-catalog-helpers";
import { orderRow, paidOrder } from "./admin-orders-helpers";

/**
 * The shopper's side of their personal data (docs/rules/personal-data.md): the footer's 'Your data'
 * page and the owner's retention setting. The profile's download and deletion and the mailed links'
 * pages are in privacy-self-links.test.ts.
 */

const t = useTestDatabase();

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

async function askAboutData(email: string, intent: string, ip = "192.0.2.10") {
  const request = await requestAs(t.db, null, "/your-data", {
    method: "POST",
    headers: { "x-shop-client-ip": ip, "content-type": "application/x-www-form-urlencoded" },
    body: form({ email, intent }),
  });
  return settle(() => yourDataAction(args(request)));
}

/** The data-request mails to this address (an order's own confirmation mail is not one). */
const mailsTo = (email: string) =>
  t.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), inArray(mailOutbox.kind, ["data-export", "data-erasure", "account-deletion"])));

describe("the footer's 'Your data' page", () => {
  it("answers the same for a known and an unknown address, and mails the link only to the known one", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const known = await askAboutData(order.email.toUpperCase(), "export");
    const unknown = await askAboutData("nobody-here@example.test", "export", "192.0.2.11");
    expect(known).toEqual({ status: 200, body: { ok: true, message: DATA_REQUEST_SENT } });
    expect(unknown).toEqual(known);
    expect(await mailsTo("nobody-here@example.test")).toHaveLength(0);
    const [mail] = await mailsTo(order.email.toLowerCase());
    expect(mail).toMatchObject({ kind: "data-export", subject: "Your data at Linen & Loft" });
    expect(mail!.text).toMatch(/\/profile\/data-request\?token=[A-Za-z0-9_-]{43}\b/);
    // Only the token's hash is kept: the link in the mail is not in the table.
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
    const rows = await t.db.select().from(verification).where(like(verification.identifier, "data-request:%"));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    const erase = await askAboutData(order.email, "erase", "192.0.2.12");
    expect(erase.body).toEqual({ ok: true, message: DATA_REQUEST_SENT });
    expect((await mailsTo(order.email.toLowerCase())).map((m) => m.kind).sort()).toEqual(["data-erasure", "data-export"]);
  });

  it("refuses a missing address or choice, and a sixth request from one address in 15 minutes (429, nothing mailed)", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    expect(await askAboutData("not-an-email", "export")).toMatchObject({ status: 400, body: { ok: false, message: "Enter your email address." } });
    expect(await askAboutData(order.email, "both")).toMatchObject({ status: 400 });
    for (let i = 0; i < 5; i++) expect((await askAboutData(`someone-${i}@example.test`, "export", "192.0.2.20")).status).toBe(200);
    const sixth = await askAboutData(order.email, "export", "192.0.2.20");
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/^Too many attempts, try again in \d+ minutes?/);
    expect(await mailsTo(order.email)).toHaveLength(0);
    // And per address asked about, from anywhere: a mailbox is not flooded.
    for (let i = 0; i < 3; i++) expect((await askAboutData(order.email, "export", `192.0.2.${30 + i}`)).status).toBe(200);
    expect((await askAboutData(order.email, "export", "192.0.2.40")).status).toBe(429);
    expect(await mailsTo(order.email)).toHaveLength(3);
    // Nothing was erased by asking.
    expect((await orderRow(t.db, orderId)).email).toBe(order.email);
  });
});

describe("Site Settings → Privacy", () => {
  const save = async (as: { id: string }, years: string) => {
    const request = await requestAs(t.db, as, "/admin/site-settings/privacy", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ retention_years: years, intent: "save" }),
    });
    const r = await settle(() => settingAction(args(request)));
    return { ...r, body: typeof r.body === "string" && r.body.startsWith("{") ? JSON.parse(r.body) : r.body };
  };

  it("keeps 10 years by default, saves a whole number from 1, refuses 0 (the law's least is a year) and customers", async () => {
    const admin = await makeAdmin(t.db);
    expect(await getRetentionSetting(t.db)).toEqual({ years: 10 });
    const zero = await save(admin, "0");
    expect(zero).toMatchObject({ status: 400, body: { ok: false, fieldErrors: { retention_years: "Enter a whole number of years from 1 to 30." } } });
    expect((await save(admin, "2.5")).status).toBe(400);
    expect(await getRetentionSetting(t.db)).toEqual({ years: 10 });
    expect(await save(admin, "7")).toMatchObject({ status: 200, body: { ok: true, setting: { years: 7 } } });
    expect(await getRetentionSetting(t.db)).toEqual({ years: 7 });
    const customer = await makeCustomer(t.db);
    expect((await save(customer, "1")).status).toBe(403);
    expect(await getRetentionSetting(t.db)).toEqual({ years: 7 });
  });
});

