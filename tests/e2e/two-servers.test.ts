import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleCsv } from "~/server/catalog/import/sample-csv.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { makePng } from "../factories/images";
import { makeCategory, makeProduct } from "../factories/products";
import { createSession, makeAdmin, makeUser, SESSION_COOKIE, type TestUser } from "../factories/users";
import { createTestDatabase, type TestDatabase } from "../setup/database";
import { PAYING_CARD, spawnShop, tempDataDir, waitFor, type ShopProcess } from "./faults-harness";
import { E2E_AUTH_SECRET } from "./harness";

/**
 * Two shop processes on one PostgreSQL, as several app servers behind a load balancer run (README,
 * Architecture; periodic tasks: docs/decisions/0017). The test is the balancer and the shoppers: it
 * alternates between A and B, and every check is a count or a state, never a time. Both processes
 * share the database, BETTER_AUTH_SECRET (the harness's) and an S3 bucket (the local fake), each
 * with its own data folder.
 */
let test: TestDatabase;
let s3: FakeS3;
const dataDirs: string[] = [];
let a: ShopProcess;
let b: ShopProcess;
let admin: TestUser;
let adminCookie = "";

/** The jobs every server's start adds (the sweep's first turn is ten minutes in). */
const JOBS_AT_START = ["settlement:provider-calls", "settlement:lost-payments"];

const start = () => {
  const dataDir = tempDataDir();
  dataDirs.push(dataDir);
  return spawnShop({
    databaseUrl: test.url,
    dataDir,
    env: {
      // debug: the output also says which job each server did ('job done').
      LOG_LEVEL: "debug",
      RATE_LIMIT_DISABLED: "false",
      // Behind the balancer (this test): the client address is the X-Forwarded-For it adds.
      TRUST_PROXY: "true",
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
  });
};

beforeAll(async () => {
  test = await createTestDatabase();
  s3 = await startFakeS3();
  await makeCategory(test.db, { name: "Bedding" });
  admin = await makeAdmin(test.db);
  // The admin's session for the checks that are not about sign-in (which signs in through A).
  adminCookie = `${SESSION_COOKIE}=${(await createSession(test.db, admin.id, E2E_AUTH_SECRET)).cookieValue}`;
  // One after the other, as a rolling start does: B's start finds A's tasks taken.
  a = await start();
  b = await start();
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await test?.drop();
  await s3?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

let ipCounter = 0;
/** A client address of its own for each shopper, so one shopper's limits are not another's. */
const freshIp = () => `10.19.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function request(server: ShopProcess, urlPath: string, init: RequestInit & { ip?: string; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("x-forwarded-for", init.ip ?? freshIp());
  if (init.cookie) headers.set("cookie", init.cookie);
  return fetch(`${server.baseUrl}${urlPath}`, { redirect: "manual", ...init, headers });
}

async function page(server: ShopProcess, urlPath: string, cookie?: string) {
  const res = await request(server, urlPath, { cookie });
  return { status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text() };
}

async function signIn(server: ShopProcess, email: string, password: string, ip: string) {
  const res = await request(server, "/auth", {
    method: "POST",
    ip,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "sign-in", email, password, redirectTo: "/admin" }),
  });
  await res.arrayBuffer();
  const session = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(c));
  return { status: res.status, cookie: session ? session.split(";")[0]! : null };
}

/** The admin's product form, as the Edit Product dialog sends it. */
const productForm = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  sku: "",
  description: "Washed linen, made for two servers.",
  imageUrl: "",
  price: "45.00",
  originalPrice: "",
  unlimitedStock: false,
  stockQuantity: "12",
  category: "Bedding",
  active: true,
  featured: false,
  ...extra,
});

/** Saves a product through a server's admin action, as the admin's browser does. */
async function saveProduct(server: ShopProcess, id: string, product: Record<string, unknown>) {
  const res = await request(server, "/admin/products.data", {
    method: "POST",
    cookie: adminCookie,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ intent: "update", id, product }),
  });
  const body = await res.text();
  expect(res.status, body).toBe(200);
  expect(body).toContain("Product updated successfully");
}

type JobLine = { jobId: string; task: string };
/** The jobs a server did, from its 'job done' lines. */
function jobsDone(server: ShopProcess): JobLine[] {
  return server.output().split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      const j = JSON.parse(line) as { jobId?: unknown; task?: unknown; msg?: unknown };
      return j.msg === "job done" && typeof j.jobId === "string" && typeof j.task === "string" ? [{ jobId: j.jobId, task: j.task }] : [];
    } catch {
      return [];
    }
  });
}
const runs = (server: ShopProcess, task: string) => jobsDone(server).filter((l) => l.task === task).length;

/** No job was done by both servers. */
function expectEachJobOnOneServer() {
  const onA = new Set(jobsDone(a).map((l) => l.jobId));
  expect(jobsDone(b).filter((l) => onA.has(l.jobId))).toEqual([]);
}

describe("two shop processes on one PostgreSQL", () => {
  it("does each job once, on one server: both starts' look at provider calls and lost payments ran", async () => {
    await waitFor(
      "the jobs each start adds to be done",
      async () => JOBS_AT_START.every((t) => runs(a, t) + runs(b, t) >= 1),
      60_000,
    );
    expectEachJobOnOneServer();
    expect(`${a.output()}\n${b.output()}`).not.toContain("job failed for good");
  });

  it("runs a job queue worker on each server, each holding the lock that says it is alive", async () => {
    // The queue's cron lines run once per cluster by the library's own bookkeeping; what the shop
    // adds is one alive lock per worker, which frees a killed server's jobs (docs/decisions/0028).
    const alive = async () =>
      (
        await test.db.$client.query<{ n: number }>(
          "select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.classid = 7242101 and l.granted and a.datname = current_database()",
        )
      ).rows[0]!.n;
    await waitFor("an alive lock from each server", async () => (await alive()) === 2, 30_000);
    const crons = await test.db.$client.query<{ identifier: string }>("select identifier from graphile_worker._private_known_crontabs order by 1");
    expect(crons.rows.map((r) => r.identifier)).toEqual([
      "commerce:close-abandoned-checkouts",
      "commerce:send-checkout-reminders",
      "jobs:sweep-dead-workers",
      "people:erase-expired-orders",
      "settlement:lost-payments",
      "settlement:provider-calls",
      "storefront:prune-change-log",
    ]);
  });

  it("accepts a session signed in on A on B, and a sign-out on B ends it on A", async () => {
    const ip = freshIp();
    const signedIn = await signIn(a, admin.email, admin.password, ip);
    expect(signedIn.status).toBe(302);
    expect(signedIn.cookie).not.toBeNull();

    const onB = await request(b, "/admin", { cookie: signedIn.cookie!, ip });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain(admin.email);
    const anonymous = await request(b, "/admin", { ip });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/auth/);

    // A second session for a customer, signed in on B and used on A, then signed out on B.
    const customer = await makeUser(test.db, { firstName: "Cluster", lastName: "Customer" });
    const theirs = await signIn(b, customer.email, customer.password, freshIp());
    expect(theirs.status).toBe(302);
    const profile = await request(a, "/profile", { cookie: theirs.cookie! });
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain(customer.email);
    const out = await request(b, "/auth/sign-out", {
      method: "POST",
      cookie: theirs.cookie!,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({}),
    });
    expect(out.status).toBe(302);
    const after = await request(a, "/profile", { cookie: theirs.cookie! });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/auth/);
  });

  it("shows a product saved on A on B's cached storefront pages at the next request, and the other way round, signed in or not", async () => {
    const p = await makeProduct(test.db, { name: "Clustered Flax Throw Before", category: "Bedding", priceCents: 4500 });
    const productPage = `/product/${p.id}`;
    const listing = "/shop?search=clustered+flax";
    const customer = await makeUser(test.db);
    const signedIn = `${SESSION_COOKIE}=${(await createSession(test.db, customer.id, E2E_AUTH_SECRET)).cookieValue}`;
    for (const server of [b, a]) {
      await page(server, productPage);
      expect((await page(server, productPage)).cache).toBe("hit");
      await page(server, listing);
      expect((await page(server, listing)).cache).toBe("hit");
      // The signed-in customers' rendering of the listing, kept under the same change log.
      await page(server, listing, signedIn);
      expect((await page(server, listing, signedIn)).cache).toBe("hit");
    }

    await saveProduct(a, p.id, productForm("Clustered Flax Throw Renamed On A", { price: "47.00" }));
    const onB = await page(b, productPage);
    expect(onB.status).toBe(200);
    expect(onB.cache).toBe("miss");
    expect(onB.html).toContain("Clustered Flax Throw Renamed On A");
    expect(onB.html).toContain("$47.00");
    expect((await page(b, listing)).html).toContain("Clustered Flax Throw Renamed On A");
    expect((await page(b, listing, signedIn)).html).toContain("Clustered Flax Throw Renamed On A");

    await saveProduct(b, p.id, productForm("Clustered Flax Throw Renamed On B", { price: "49.00" }));
    const onA = await page(a, productPage);
    expect(onA.cache).toBe("miss");
    expect(onA.html).toContain("Clustered Flax Throw Renamed On B");
    expect((await page(a, listing)).html).toContain("Clustered Flax Throw Renamed On B");
    expect((await page(a, listing, signedIn)).html).toContain("Clustered Flax Throw Renamed On B");
    expect((await page(b, productPage)).html).toContain("Clustered Flax Throw Renamed On B");
  });

  it("counts wrong passwords on both servers toward one sign-in limit", async () => {
    /** Wrong passwords from one client address until a 429: how many it took (401 before it). */
    async function attemptsUntilLimited(servers: ShopProcess[], user: TestUser) {
      const ip = freshIp();
      for (let n = 1; n <= 40; n++) {
        const { status } = await signIn(servers[n % servers.length]!, user.email, `wrong-guess-${n}`, ip);
        if (status === 429) return n;
        expect(status, `attempt ${n}`).toBe(401);
      }
      return null;
    }
    const onOne = await attemptsUntilLimited([a], await makeUser(test.db));
    const alternating = await attemptsUntilLimited([a, b], await makeUser(test.db));
    expect(onOne).not.toBeNull();
    expect(alternating).toBe(onOne);
  });

  it("reports an import started on A on B: its progress while it runs, then its end", async () => {
    const ROWS = 4000;
    const dir = dataDirs[0]!;
    const csv = path.join(dir, "two-servers.csv");
    await writeSampleCsv(csv, ROWS, { skuPrefix: "TWO" });
    // Holding the row of a SKU in the file's last batch (of 1,000 rows) stops the import before
    // its end, so B's answer while it runs does not depend on speed. The file's categories exist
    // already: a batch creating one would otherwise wait for the held batch that created it too.
    for (const name of ["Furniture", "Decor", "Accessories", "Bath"]) await makeCategory(test.db, { name }).catch(() => {});
    await makeProduct(test.db, { sku: "TWO-0003500", name: "Held for the import" });
    const holder = new pg.Client({ connectionString: test.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from products where sku = 'TWO-0003500' for update");

      const upload = await request(a, "/admin/products/import", {
        method: "POST",
        cookie: adminCookie,
        headers: { "content-type": "text/csv", "x-file-name": "two-servers.csv" },
        body: fs.readFileSync(csv),
      });
      expect(upload.status).toBe(200);
      const { job } = (await upload.json()) as { job: { id: string } };
      const confirm = await request(a, `/admin/products/import/${job.id}`, {
        method: "POST",
        cookie: adminCookie,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "intent=confirm",
      });
      expect(confirm.status).toBe(200);
      await confirm.arrayBuffer();

      type View = { id: string; status: string; processed: number; total: number };
      const viewOnB = async () => {
        const res = await request(b, `/admin/products/jobs/${job.id}`, { cookie: adminCookie });
        return ((await res.json()) as { job: View }).job;
      };
      const running = await waitFor("B to report the import's first batch", async () => {
        const v = await viewOnB();
        if (v.status === "running" && v.processed > 0) return v;
        throw new Error(`B reports ${JSON.stringify(v)}`);
      }, 60_000);
      expect(running).toMatchObject({ id: job.id, status: "running", total: ROWS });
      expect(running.processed).toBeLessThan(ROWS);
      // B's Import tab shows the same job as the newest.
      const tab = await request(b, "/admin/products/import", { cookie: adminCookie });
      expect(((await tab.json()) as { job: View }).job).toMatchObject({ id: job.id, status: "running" });

      await holder.query("commit");
      const done = await waitFor("B to report the import's end", async () => {
        const v = await viewOnB();
        if (v.status === "failed") throw new Error(`the import failed: ${JSON.stringify(v)}`);
        return v.status === "done" ? v : null;
      }, 120_000);
      expect(done).toMatchObject({ id: job.id, processed: ROWS, total: ROWS });
    } finally {
      await holder.end();
    }
    const { rows } = await test.db.$client.query<{ n: string }>("select count(*) as n from products where sku like 'TWO-%'");
    expect(Number(rows[0]!.n)).toBe(ROWS);
  }, 240_000);

  it("stores uploads in the shared bucket: an image uploaded on either server is served, and shows on the other's pages", async () => {
    const png = await makePng(40, 30, "#2e86c1");
    const upload = async (server: ShopProcess) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "cluster.png");
      const res = await request(server, "/admin/blog/upload", { method: "POST", cookie: adminCookie, body: form });
      expect(res.status).toBe(200);
      return ((await res.json()) as { url: string }).url;
    };
    const fromA = await upload(a);
    const fromB = await upload(b);
    for (const url of [fromA, fromB]) {
      expect(url.startsWith(`${s3.endpoint}/site-assets/blog-images/`), url).toBe(true);
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    }
    // Nothing went to either server's own disk.
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, "uploads", "blog-images"))).toBe(false);

    // The image uploaded on A, set on a product through B, is on A's product page.
    const p = await makeProduct(test.db, { name: "Bucket Linen Pillow", category: "Bedding" });
    await saveProduct(b, p.id, productForm("Bucket Linen Pillow", { imageUrl: fromA }));
    expect((await page(a, `/product/${p.id}`)).html).toContain(fromA);
    // Both servers reach the bucket (their health check lists it).
    for (const server of [a, b]) expect((await request(server, "/healthz")).status).toBe(200);
  });

  it("sells exactly the stock when shoppers race for the last units across both servers", async () => {
    const STOCK = 5;
    const SHOPPERS = 20;
    const p = await makeProduct(test.db, { name: "Last Units Quilt", category: "Bedding", priceCents: 9900, stockQuantity: STOCK });
    const servers = [a, b];
    const shopper = async (n: number) => {
      const ip = freshIp();
      const [first, second] = [servers[n % 2]!, servers[(n + 1) % 2]!];
      const created = await request(first, "/api/checkout", {
        method: "POST",
        ip,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          cartItems: [{ id: p.id, quantity: 1 }],
          formData: { firstName: "Race", lastName: `Shopper ${n}`, email: `race-${n}@example.test`, address: "1 Test Street", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
          idempotencyKey: `two-servers-race-${n}`,
        }),
      });
      const answer = (await created.json()) as { url?: string; problems?: { id: string; message: string }[] };
      if (created.status !== 200) return { n, checkout: created.status, problems: answer.problems, paid: false };
      const sessionId = decodeURIComponent(/\/pay\/test\/([^/?#]+)/.exec(answer.url!)![1]!);
      // Paid on the other server, confirmed on the first, as a balancer may send them.
      const paid = await request(second, `/pay/test/${encodeURIComponent(sessionId)}`, {
        method: "POST",
        ip,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(PAYING_CARD),
      });
      await paid.arrayBuffer();
      expect(paid.status).toBe(302);
      const verified = await request(first, "/api/verify-payment", {
        method: "POST",
        ip,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session_id: sessionId }),
      });
      const result = (await verified.json()) as { payment_successful?: boolean };
      return { n, checkout: 200, paid: verified.status === 200 && result.payment_successful === true };
    };
    const outcomes = await Promise.all(Array.from({ length: SHOPPERS }, (_, n) => shopper(n)));
    for (const o of outcomes) expect([200, 400, 409], `checkout ${o.n}`).toContain(o.checkout);
    // A checkout that starts after the last unit was paid for is told so, and makes no order. On a
    // busy machine some shoppers' checkouts are reached only after five others have paid.
    for (const o of outcomes.filter((o) => o.checkout === 400)) {
      expect(o.problems, `checkout ${o.n}`).toEqual([{ id: p.id, message: '"Last Units Quilt" is out of stock.' }]);
    }
    expect(outcomes.filter((o) => o.paid)).toHaveLength(STOCK);

    const q = async <T>(text: string) => (await test.db.$client.query(text, [p.id])).rows as T[];
    // The refunds of the orders that sold out while their shoppers paid are made after the sale.
    await waitFor(
      "the sold-out orders' refunds",
      async () =>
        (await q<{ n: string }>("select count(*) as n from payment_tasks t join order_items i on i.order_id = t.order_id where i.product_id = $1 and t.state <> 'done'"))[0]!.n === "0",
      60_000,
    );
    const orders = await q<{ status: string; payment_status: string; quantity: number }>(
      "select o.status, o.payment_status, i.quantity from orders o join order_items i on i.order_id = o.id where i.product_id = $1",
    );
    const kept = orders.filter((o) => o.payment_status === "paid");
    expect(kept).toHaveLength(STOCK);
    expect(kept.every((o) => o.status !== "cancelled" && o.quantity === 1)).toBe(true);
    // Every other order's shopper paid too, after the last unit had gone: cancelled and refunded.
    const others = orders.filter((o) => o.payment_status !== "paid");
    expect(others.filter((o) => o.status !== "cancelled" || o.payment_status !== "refunded")).toEqual([]);
    expect(orders.length + outcomes.filter((o) => o.checkout !== 200).length).toBe(SHOPPERS);
    expect((await q<{ stock_quantity: number }>("select stock_quantity from products where id = $1"))[0]!.stock_quantity).toBe(0);
  }, 120_000);

  it("loses no request when A is stopped under load: the balancer retries a refused request on B", async () => {
    expectEachJobOnOneServer();

    const products = await Promise.all([1, 2, 3].map((i) => makeProduct(test.db, { name: `Drain Test Sheet ${i}`, category: "Bedding", unlimitedStock: true })));
    const servers = [a, b];
    let turn = 0;
    const counts = { answeredByA: 0, answeredByB: 0, retried: 0, answeredByBAfterAStopped: 0 };
    const failures: string[] = [];
    let aStopped = false;

    /** The balancer: round robin; a connection error or a 503 is retried on the other server. */
    async function balance(send: (server: ShopProcess) => Promise<Response>, ok: (res: Response) => boolean, what: string) {
      let server = servers[turn++ % 2]!;
      for (let attempt = 0; attempt < 4; attempt++) {
        try {
          const res = await send(server);
          if (res.status === 503) {
            await res.arrayBuffer();
            throw new Error("503");
          }
          if (!ok(res)) {
            failures.push(`${what}: ${res.status} from ${server === a ? "A" : "B"}`);
            await res.arrayBuffer();
            return;
          }
          await res.arrayBuffer();
          if (server === a) counts.answeredByA++;
          else {
            counts.answeredByB++;
            if (aStopped) counts.answeredByBAfterAStopped++;
          }
          return;
        } catch {
          counts.retried++;
          server = server === a ? b : a;
        }
      }
      failures.push(`${what}: no answer after 4 attempts`);
    }

    let serial = 0;
    const requests = [
      (n: number) => balance((s) => request(s, `/product/${products[n % 3]!.id}`), (r) => r.status === 200, `product page ${n}`),
      (n: number) => balance((s) => request(s, `/shop?search=drain+${n}`), (r) => r.status === 200, `search ${n}`),
      (n: number) => balance((s) => request(s, `/api/cart/quote?lines=${products[n % 3]!.id}:1`), (r) => r.status === 200, `quote ${n}`),
      (n: number) => {
        // A checkout may be sent twice (the balancer's retry): its key makes it one order.
        const body = JSON.stringify({
          cartItems: [{ id: products[n % 3]!.id, quantity: 1 }],
          formData: { firstName: "Drain", lastName: `Shopper ${n}`, email: `drain-${n}@example.test`, address: "1 Test Street", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
          idempotencyKey: `two-servers-drain-${n}`,
        });
        const ip = freshIp();
        return balance(
          (s) => request(s, "/api/checkout", { method: "POST", ip, headers: { "content-type": "application/json" }, body }),
          (r) => r.status === 200,
          `checkout ${n}`,
        );
      },
    ];
    const checkoutsSent: number[] = [];
    let stopLoad = false;
    const worker = async () => {
      while (!stopLoad) {
        const n = serial++;
        if (n % requests.length === 3) checkoutsSent.push(n);
        await requests[n % requests.length]!(n);
      }
    };
    const workers = Array.from({ length: 6 }, worker);

    await waitFor("requests answered by both servers", async () => counts.answeredByA >= 20 && counts.answeredByB >= 20, 60_000);
    await a.stop();
    aStopped = true;
    await waitFor("requests answered after A stopped", async () => counts.answeredByBAfterAStopped >= 40, 60_000);
    stopLoad = true;
    await Promise.all(workers);

    expect(failures).toEqual([]);
    expect(a.output()).toContain("SIGTERM: finishing requests in flight");
    // Requests kept reaching A's address after it went away, and B answered each of them.
    expect(counts.retried).toBeGreaterThan(0);
    const { rows } = await test.db.$client.query<{ key: string; n: string }>(
      "select checkout_key as key, count(*) as n from orders where checkout_key like 'two-servers-drain-%' group by checkout_key",
    );
    expect(rows.filter((r) => r.n !== "1")).toEqual([]);
    expect(rows.map((r) => r.key).sort()).toEqual(checkoutsSent.map((n) => `two-servers-drain-${n}`).sort());

    // B does the cluster's periodic work alone now: the next minute's look at the provider calls runs on B.
    const callsOnB = runs(b, "settlement:provider-calls");
    await waitFor("B to run the provider calls once A is gone", async () => runs(b, "settlement:provider-calls") > callsOnB, 90_000);
    expectEachJobOnOneServer();
  }, 240_000);
});
