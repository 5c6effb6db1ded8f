import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shippingForm } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { createSession, makeCustomer, SESSION_COOKIE } from "../factories/users";
import { createTestDatabase, type TestDatabase } from "../setup/database";
import { interruptServer, payOnTestPage, type ShopProcess, spawnShop, tempDataDir, testSessionOf, waitFor } from "./faults-harness";
import { E2E_AUTH_SECRET, freePort } from "./harness";

/**
 * Two shop servers reaching PostgreSQL through a real PgBouncer in transaction mode
 * (docs/decisions/0039, docs/deploy.md "PgBouncer"): DATABASE_URL names the pooler,
 * DATABASE_DIRECT_URL the database itself for what needs a session (migrations, the job queue's
 * LISTEN and alive lock). Needs `pgbouncer` (Debian package `pgbouncer`; .ci/run installs it).
 */
const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => fs.existsSync(p));
if (!PGBOUNCER) console.warn("tests/e2e/pgbouncer.test.ts skipped: pgbouncer is not installed (apt-get install -y pgbouncer).");

let test: TestDatabase;
let bouncer: { url: string; start: () => Promise<void>; stop: () => Promise<void>; dir: string };
const servers: ShopProcess[] = [];
const dataDirs: string[] = [];

/** A PgBouncer in transaction mode in front of `databaseUrl`, in a folder of its own. */
async function startPgBouncer(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-pgbouncer-"));
  // PgBouncer refuses to run as root: as root it switches to `nobody`, who must write its log.
  fs.chmodSync(dir, 0o777);
  const database = target.pathname.slice(1);
  const ini = [
    "[databases]",
    `shop = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${decodeURIComponent(target.username)}` +
      (target.password ? ` password=${decodeURIComponent(target.password)}` : ""),
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    // No client password (the test's own PgBouncer, on 127.0.0.1), but only the users the
    // auth file names; the server login is the line above.
    "auth_type = trust",
    `auth_file = ${dir}/userlist.txt`,
    "pool_mode = transaction",
    "max_client_conn = 500",
    // Fewer server sessions than the shops' pools hold clients: consecutive transactions of one
    // client land on different server sessions, as they do under load in production.
    "default_pool_size = 6",
    "unix_socket_dir =",
    `logfile = ${dir}/pgbouncer.log`,
    `pidfile = ${dir}/pgbouncer.pid`,
    "ignore_startup_parameters = extra_float_digits",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "pgbouncer.ini"), `${ini}\n`, { mode: 0o644 });
  fs.writeFileSync(path.join(dir, "userlist.txt"), `"shop" ""\n`, { mode: 0o644 });
  let child: ChildProcess | null = null;
  const start = async () => {
    const asRoot = process.getuid?.() === 0;
    child = spawn(PGBOUNCER!, [...(asRoot ? ["-u", "nobody"] : []), path.join(dir, "pgbouncer.ini")], { stdio: "ignore" });
    await waitFor("PgBouncer to accept connections", () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.once("connect", () => (socket.destroy(), resolve(true)));
        socket.once("error", () => resolve(false));
      }),
    );
  };
  const stop = async () => {
    const running = child;
    child = null;
    await interruptServer(running);
  };
  await start();
  return { url: `postgres://shop@127.0.0.1:${port}/shop`, start, stop, dir };
}

const start = () => {
  const dataDir = tempDataDir();
  dataDirs.push(dataDir);
  return spawnShop({ databaseUrl: bouncer.url, dataDir, env: { DATABASE_DIRECT_URL: test.url } });
};

describe.skipIf(!PGBOUNCER)("two servers through PgBouncer in transaction mode", () => {
  beforeAll(async () => {
    test = await createTestDatabase();
    bouncer = await startPgBouncer(test.url);
    // One after the other, as a rolling start does.
    servers.push(await start());
    servers.push(await start());
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await bouncer?.stop();
    await test?.drop();
    for (const dir of [...dataDirs, bouncer?.dir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const [a, b] = [() => servers[0]!, () => servers[1]!];

  async function checkout(server: ShopProcess, productId: string) {
    const res = await fetch(`${server.baseUrl}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cartItems: [{ id: productId, quantity: 1 }], formData: shippingForm() }),
    });
    return { status: res.status, body: (await res.json()) as { url?: string } };
  }

  it("sells, pays and mails once, with each server's job queue on its direct session", async () => {
    // Each worker's alive lock is a session of its own: on the database, not through the pooler.
    const alive = async () =>
      (
        await test.db.$client.query<{ n: number }>(
          "select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.classid = 7242101 and l.granted and a.datname = current_database()",
        )
      ).rows[0]!.n;
    await waitFor("an alive lock from each server", async () => (await alive()) === 2, 30_000);

    const product = await makeProduct(test.db, { name: "Pooled Percale Sheet", priceCents: 5400, stockQuantity: 5 });
    const placed = await checkout(a(), product.id);
    expect(placed.status).toBe(200);
    const sessionId = testSessionOf(placed.body.url!);
    // Paid on the other server.
    expect((await payOnTestPage(b().baseUrl, sessionId)).status).toBe(302);
    const order = await waitFor("the order to be paid", async () => {
      const { rows } = await test.db.$client.query<{ id: string; email: string }>(
        "select o.id, o.email from orders o join test_payment_sessions s on s.order_id = o.id where s.id = $1 and o.payment_status = 'paid'",
        [sessionId],
      );
      return rows[0];
    });
    // The confirmation mail, queued in the payment's transaction, is sent once by one worker.
    await waitFor("the confirmation mail to be sent", async () => {
      const { rows } = await test.db.$client.query<{ n: number }>(
        "select count(*)::int as n from mail_outbox where \"to\" = $1 and status = 'sent'",
        [order.email],
      );
      return rows[0]!.n >= 1;
    }, 30_000);
    const { rows: mails } = await test.db.$client.query<{ n: number }>("select count(*)::int as n from mail_outbox where \"to\" = $1", [order.email]);
    expect(mails[0]!.n).toBe(1);
    const { rows: stock } = await test.db.$client.query<{ stock_quantity: number }>("select stock_quantity from products where id = $1", [product.id]);
    expect(stock[0]!.stock_quantity).toBe(4);
  }, 90_000);

  it("answers a burst of cached, signed-in and rendered pages on both servers, and shows a change at once", async () => {
    const product = await makeProduct(test.db, { name: "Pooled Linen Quilt", priceCents: 12000 });
    const customer = await makeCustomer(test.db);
    const cookie = `${SESSION_COOKIE}=${(await createSession(test.db, customer.id, E2E_AUTH_SECRET)).cookieValue}`;
    // The page cache's change-log check and the session-role read are the hot queries on every
    // request: on a transaction pooler they must not rely on statements prepared on a session.
    const asks = Array.from({ length: 120 }, (_, n) => {
      const server = n % 2 ? a() : b();
      const signedIn = n % 3 === 0;
      const headers: Record<string, string> = signedIn ? { cookie } : {};
      // A product page is its own for a signed-in visitor; the listing is shared by role.
      const url = signedIn ? "/shop" : n % 5 === 0 ? `/shop?search=quilt-${n}` : `/product/${product.id}`;
      return fetch(`${server.baseUrl}${url}`, { headers, redirect: "manual" }).then(async (res) => ({
        url,
        signedIn,
        status: res.status,
        cache: res.headers.get("x-page-cache"),
        body: await res.text(),
      }));
    });
    const answers = await Promise.all(asks);
    expect(answers.filter((r) => r.status !== 200).map((r) => `${r.url}: ${r.status}`)).toEqual([]);
    // A failed change-log check or session read falls back to rendering (200, but without the
    // cache's header): every page, anonymous or signed in, went through the page cache.
    const uncached = answers.filter((r) => r.cache === null);
    expect(uncached.map((r) => `${r.url}${r.signedIn ? " signed in" : ""}`), "pages the page cache could not answer for").toEqual([]);

    const page = async (server: ShopProcess) => {
      const res = await fetch(`${server.baseUrl}/product/${product.id}`);
      return { cache: res.headers.get("x-page-cache"), html: await res.text() };
    };
    await page(b());
    expect((await page(b())).cache).toBe("hit");
    await test.db.$client.query("update products set name = 'Pooled Linen Quilt Renamed' where id = $1", [product.id]);
    const after = await page(b());
    expect(after.cache).toBe("miss");
    expect(after.html).toContain("Pooled Linen Quilt Renamed");
  }, 90_000);

  it("answers 503 while PgBouncer restarts, refuses a checkout meanwhile, and loses no paid order", async () => {
    const product = await makeProduct(test.db, { name: "Pooled Wool Throw", priceCents: 8800, stockQuantity: 3 });
    const before = await checkout(a(), product.id);
    expect(before.status).toBe(200);
    const sessionId = testSessionOf(before.body.url!);

    await bouncer.stop();
    try {
      const down = await fetch(`${b().baseUrl}/`, { signal: AbortSignal.timeout(30_000) });
      expect(down.status).toBe(503);
      expect(await down.text()).toContain("The shop is briefly unavailable");
      const refused = await fetch(`${a().baseUrl}/api/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ cartItems: [{ id: product.id, quantity: 1 }], formData: shippingForm() }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(refused.status).toBe(503);
    } finally {
      await bouncer.start();
    }

    await waitFor("both servers to answer again", async () => {
      const statuses = await Promise.all(servers.map((s) => fetch(`${s.baseUrl}/`).then((r) => r.status)));
      return statuses.every((s) => s === 200);
    });
    // The checkout opened before the restart is paid after it, once.
    expect((await payOnTestPage(b().baseUrl, sessionId)).status).toBe(302);
    expect((await payOnTestPage(a().baseUrl, sessionId)).status).toBe(302);
    await waitFor("the order to be paid", async () => {
      const { rows } = await test.db.$client.query<{ n: number }>(
        "select count(*)::int as n from orders o join test_payment_sessions s on s.order_id = o.id where s.id = $1 and o.payment_status = 'paid'",
        [sessionId],
      );
      return rows[0]!.n === 1;
    });
    const { rows } = await test.db.$client.query<{ orders: number; stock: number }>(
      "select (select count(*)::int from order_items where product_id = $1) as orders, (select stock_quantity from products where id = $1) as stock",
      [product.id],
    );
    // One order for the throw (the refused checkout wrote nothing), and one unit sold.
    expect(rows[0]).toEqual({ orders: 1, stock: 2 });
  }, 120_000);
});
