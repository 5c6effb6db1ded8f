import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getCustomer } from "~/server/people/customers/detail.server";
import { contactMessages, customers } from "~/server/platform/db/schema";
import { countFailedMails, listOutbox } from "~/server/platform/mail/outbox.server";
import { makeOrder } from "../factories/account-orders";
import { useTestDatabase } from "../setup/database";

/**
 * Admin reads that run often or for one customer among many are answered through their own
 * index (migration 0023), whatever the table's size: the statements these functions really send
 * are captured and explained with the alternatives priced out, so the plan names the index only
 * when the index exists and the query's expression, conditions and order match it.
 */
const t = useTestDatabase();

type Sent = { text: string; values: unknown[] };

/** The SQL statements `run` sends through the pool. */
async function statementsOf(run: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const pool = t.db.$client;
  const original = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  const spy = vi.spyOn(pool, "query").mockImplementation(((...a: unknown[]) => {
    const q = a[0] as string | { text: string; values?: unknown[] };
    // drizzle passes a query config and the values beside it.
    const text = typeof q === "string" ? q : q.text;
    sent.push({ text, values: (a[1] as unknown[] | undefined) ?? (typeof q === "string" ? [] : (q.values ?? [])) });
    return original(...a);
  }) as typeof pool.query);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

/** The plan of one statement with sequential scans, bitmap scans and sorts priced out (any usable index beats them). */
async function planOf(s: Sent): Promise<string> {
  const client = await t.db.$client.connect();
  try {
    await client.query("begin");
    // Sorts priced out too: a plan without one reads the index in the order asked.
    for (const plan of ["seqscan", "bitmapscan", "sort"]) await client.query(`set local enable_${plan} = off`);
    const r = await client.query(`explain (costs off) ${s.text}`, s.values);
    return r.rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.query("rollback");
    client.release();
  }
}

const one = (sent: Sent[], pattern: RegExp) => {
  const matches = sent.filter((s) => pattern.test(s.text));
  expect(matches, `one statement matching ${pattern}`).toHaveLength(1);
  return matches[0]!;
};

describe("indexes behind the admin's frequent reads", () => {
  it("a customer's page reads their contact messages through contact_messages_email_idx, newest first without a sort", async () => {
    await makeOrder(t.db, { email: "Mixed.Case@Example.test", orderNumber: "ORD-IDX-1" });
    const [customer] = await t.db.select().from(customers).where(eq(customers.emailKey, "mixed.case@example.test"));
    await t.db.insert(contactMessages).values([
      { name: "M", email: "MIXED.case@example.test", subject: "First", message: "…" },
      { name: "M", email: "someone.else@example.test", subject: "Not theirs", message: "…" },
    ]);
    let view: Awaited<ReturnType<typeof getCustomer>> = null;
    const sent = await statementsOf(async () => {
      view = await getCustomer(t.db, customer!.id);
    });
    expect(view!.messages.map((m: { subject: string }) => m.subject)).toEqual(["First"]);
    const plan = await planOf(one(sent, /from "contact_messages"/));
    expect(plan).toContain("contact_messages_email_idx");
    expect(plan).toMatch(/Index Cond: \(lower\(email\) = /);
    expect(plan).not.toMatch(/Sort/);
  });

  it("the failed-mail count on every admin page and the Failed list read mail_outbox_failed_idx", async () => {
    await t.db.execute(sql`insert into mail_outbox ("to", "from", subject, text, status) values
      ('a@example.test', 'shop', 'A', 't', 'retrying'), ('b@example.test', 'shop', 'B', 't', 'given_up'), ('c@example.test', 'shop', 'C', 't', 'sent')`);
    let failed = 0;
    const counted = await statementsOf(async () => {
      failed = await countFailedMails(t.db);
    });
    expect(failed).toBe(2);
    expect(await planOf(one(counted, /from "mail_outbox"/))).toMatch(/Index (Only )?Scan using mail_outbox_failed_idx/);

    const listed = await statementsOf(() => listOutbox(t.db, 1, "failed"));
    const page = one(listed, /select "id", "to".*from "mail_outbox".*limit/s);
    const plan = await planOf(page);
    expect(plan).toContain("mail_outbox_failed_idx");
    expect(plan).not.toMatch(/Sort/);
  });
});
