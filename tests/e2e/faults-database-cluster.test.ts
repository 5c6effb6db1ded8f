import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { makeProducts } from "../factories/products";
import { ownPostgres, payOnTestPage, spawnShop, tempDataDir, testSessionOf, waitFor, type OwnPostgres, type ShopProcess } from "./faults-harness";

/**
 * The database restarts while two app servers take orders. Neither server is restarted: both
 * answer 503 with the shop's page (never a 500 or a stack) while it is away and take orders again
 * once it is back. No order a shopper was told is paid is lost, no checkout makes two orders, no
 * order lacks its lines, and stock equals its start minus what paid orders took.
 */
const START_STOCK = 100_000;
let pg: OwnPostgres;
let db: Database;
const servers: ShopProcess[] = [];
const dirs: string[] = [];
let productIds: string[] = [];

beforeAll(async () => {
  pg = await ownPostgres();
  db = createDatabase(pg.url, 2);
  productIds = (await makeProducts(db, 3, () => ({ stockQuantity: START_STOCK }))).map((p) => p.id);
  for (let i = 0; i < 2; i++) {
    const dir = tempDataDir();
    dirs.push(dir);
    servers.push(await spawnShop({ databaseUrl: pg.url, dataDir: dir }));
  }
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  await db?.$client.end();
  await pg?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const rows = async <T>(text: string, values: unknown[] = []) => (await db.$client.query(text, values)).rows as T[];

type Seen = { paid: Set<string>; refusals: { status: number; retryAfter: string | null; body: string }[]; broken: string[] };

/** One shopper's purchase on `base`: checkout, pay, verify. Answers which statuses came back. */
async function buy(base: string, n: number, seen: Seen) {
  const note = async (res: Response) => {
    if (res.status === 200 || res.status === 302) return true;
    const body = await res.text();
    if (res.status === 503) seen.refusals.push({ status: res.status, retryAfter: res.headers.get("retry-after"), body });
    else seen.broken.push(`${res.status}: ${body.slice(0, 200)}`);
    return false;
  };
  const created = await fetch(`${base}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ id: productIds[n % 3], quantity: 1 }],
      formData: { firstName: "Db", lastName: "Restart", email: `db-restart-${n}@example.test`, address: "1 Test St", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
      idempotencyKey: `db-restart-${n}-0000`,
    }),
  });
  if (!(await note(created))) return;
  const { url, orderNumber } = (await created.json()) as { url: string; orderNumber: string };
  const sessionId = testSessionOf(url);
  const paid = await payOnTestPage(base, sessionId);
  if (!(await note(paid))) return;
  const verified = await fetch(`${base}/api/verify-payment`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ session_id: sessionId }) });
  if (!(await note(verified))) return;
  if (((await verified.json()) as { payment_successful?: boolean }).payment_successful) seen.paid.add(orderNumber);
}

describe("the database restarts while two app servers take orders", () => {
  it("both answer 503 meanwhile and recover by themselves; no paid order lost, none doubled", async () => {
    const seen: Seen = { paid: new Set(), refusals: [], broken: [] };
    let n = 0;
    let stop = false;
    const shopper = async (k: number) => {
      while (!stop) await buy(servers[(k + n) % 2]!.baseUrl, n++, seen).catch((err: Error) => seen.broken.push(`client: ${err.message}`));
    };
    const shoppers = Array.from({ length: 6 }, (_, k) => shopper(k));

    await waitFor("orders before the restart", async () => seen.paid.size >= 10, 60_000);
    await pg.stop();
    try {
      await waitFor("both servers to answer 503 while the database is away", async () => {
        const answers = await Promise.all(servers.map((s) => fetch(`${s.baseUrl}/shop`, { redirect: "manual" })));
        return answers.every((r) => r.status === 503);
      }, 30_000);
    } catch (err) {
      console.log(servers.map((s) => s.output().slice(-3000)).join("\n=====\n"));
      throw err;
    }
    const page = await (await fetch(`${servers[1]!.baseUrl}/`, { redirect: "manual" })).text();
    expect(page).toContain("The shop is briefly unavailable");
    expect(page).not.toMatch(/ECONNREFUSED|at [\w.]+ \(|node_modules/);
    await pg.start();
    const before = seen.paid.size;
    await waitFor("orders after the restart, on both servers", async () => seen.paid.size >= before + 10, 90_000);
    stop = true;
    await Promise.all(shoppers);

    expect(seen.broken, "answers that were neither success nor 503").toEqual([]);
    expect(seen.refusals.length, "refusals while the database was away").toBeGreaterThan(0);
    for (const r of seen.refusals) expect(r.retryAfter, r.body.slice(0, 120)).toBe("5");
    for (const s of servers) expect(s.output()).not.toMatch(/Shop ready on[\s\S]*Shop ready on/);

    const orders = await rows<{ order_number: string; email: string; payment_status: string; lines: string }>(
      "select order_number, email, payment_status, (select count(*) from order_items i where i.order_id = o.id) as lines from orders o",
    );
    expect(orders.filter((o) => Number(o.lines) === 0).map((o) => o.order_number), "orders without lines").toEqual([]);
    const paid = new Set(orders.filter((o) => o.payment_status === "paid").map((o) => o.order_number));
    expect([...seen.paid].filter((o) => !paid.has(o)), "reported paid, not paid").toEqual([]);
    // Each shopper (one email) buys once: never two paid orders for one checkout.
    const paidEmails = orders.filter((o) => o.payment_status === "paid").map((o) => o.email);
    expect(paidEmails.length - new Set(paidEmails).size, "checkouts paid twice").toBe(0);
    const stock = await rows<{ id: string; stock: number; sold: string }>(
      `select p.id, p.stock_quantity as stock, coalesce(sum(i.quantity) filter (
           where o.payment_status = 'paid' and i.stock_tracked and o.stock_released_at is null), 0) as sold
         from products p left join order_items i on i.product_id = p.id left join orders o on o.id = i.order_id
        where p.id = any($1) group by p.id`,
      [productIds],
    );
    for (const p of stock) expect(p.stock, `stock of ${p.id}`).toBe(START_STOCK - Number(p.sold));
  }, 240_000);
});
