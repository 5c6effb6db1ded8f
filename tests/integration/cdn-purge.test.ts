import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cloudflarePurger, fastlyPurger, varnishPurger, type CdnPurger } from "~/server/platform/cdn/adapters.server";
import { cdnJobs, LOG_REACH_MS, PURGE_MAX_ATTEMPTS, purgeChangedTags, queuePurgeIfChanged, startPurgeCursor } from "~/server/platform/cdn/purge.server";
import { blogPosts, products, siteSettings } from "~/server/platform/db/schema";
import { listFailedJobRows } from "~/server/platform/jobs/failed-jobs.server";
import { runDueJobs } from "~/server/platform/jobs/queue.server";
import { makeProduct } from "../factories/products";
import { createTestDatabase, type TestDatabase } from "../setup/database";

/**
 * Purging a CDN by tag (docs/decisions/0037), against local fakes of Fastly's, Cloudflare's and a
 * Varnish's purge APIs: the exact requests each adapter sends, and the job that turns the change
 * log into purges (batched, once, retried, reported, never in a save's way).
 */

type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
type Fake = { url: string; seen: Seen[]; answer: { status: number; body: string }; hang: boolean; close: () => Promise<void> };

const fakes: Fake[] = [];

async function fakeApi(answer = { status: 200, body: '{"status":"ok"}' }): Promise<Fake> {
  const fake: Fake = { url: "", seen: [], answer, hang: false, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      fake.seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      if (fake.hang) return;
      res.writeHead(fake.answer.status, { "content-type": "application/json" }).end(fake.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  fakes.push(fake);
  return fake;
}

/**
 * Node's HTTP parser refuses methods it does not know (BAN among them) before any handler runs,
 * so the Varnish fake reads the request's head off the socket itself.
 */
async function fakeVarnish(): Promise<Fake> {
  const fake: Fake = { url: "", seen: [], answer: { status: 200, body: "" }, hang: false, close: async () => {} };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [requestLine, ...lines] = head.slice(0, end).split("\r\n");
      const [method, path] = requestLine!.split(" ");
      const headers: http.IncomingHttpHeaders = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      fake.seen.push({ method: method!, path: path!, headers, body: "" });
      head = "";
      if (fake.hang) return;
      const { status, body } = fake.answer;
      socket.end(`HTTP/1.1 ${status} ${status === 200 ? "OK" : "Refused"}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  fakes.push(fake);
  return fake;
}

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});

afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
});

afterAll(async () => {
  await test?.drop();
});

const purgeJobs = async () =>
  (
    await test.db.execute<{ attempts: number; max_attempts: number; last_error: string | null }>(sql`
      select j.attempts, j.max_attempts, j.last_error from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'cdn:purge'`)
  ).rows;

/** What a worker does: the look at the log, then every purge job due now. */
async function lookAndRun(purger: CdnPurger) {
  await queuePurgeIfChanged(test.db);
  await runDueJobs(test.db, [cdnJobs(test.db, purger)]);
}

/** Makes every waiting purge job due now (its backoff skipped), as time passing would. */
const makeDue = () => test.db.execute(sql`update graphile_worker._private_jobs set run_at = now() where key = 'cdn:purge'`);

/** Empties the log's backlog into a throwaway purger, so a test starts from a clean cursor. */
async function drain() {
  await startPurgeCursor(test.db);
  await test.db.execute(sql`delete from graphile_worker._private_jobs where key = 'cdn:purge'`);
  await purgeChangedTags(test.db, { name: "varnish", batch: 1000, purge: async () => {} });
}

describe("purge adapters, against fakes of their APIs", () => {
  it("Fastly: POST /service/<id>/purge with the keys in Surrogate-Key, the API token and a soft purge", async () => {
    const fake = await fakeApi();
    await fastlyPurger({ apiUrl: fake.url, serviceId: "SVC123", token: "fastly-token" }).purge(["listing", "product:abc"]);
    expect(fake.seen).toHaveLength(1);
    const [req] = fake.seen;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/service/SVC123/purge");
    expect(req!.headers["fastly-key"]).toBe("fastly-token");
    expect(req!.headers["surrogate-key"]).toBe("listing product:abc");
    expect(req!.headers["fastly-soft-purge"]).toBe("1");
    expect(req!.body).toBe("");
  });

  it("Cloudflare: POST /zones/<id>/purge_cache with {tags} and the bearer token; success false is a failure", async () => {
    const fake = await fakeApi({ status: 200, body: '{"success":true,"errors":[],"result":{"id":"x"}}' });
    await cloudflarePurger({ apiUrl: fake.url, zoneId: "ZONE9", token: "cf-token" }).purge(["settings", "post:sleep"]);
    const [req] = fake.seen;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/zones/ZONE9/purge_cache");
    expect(req!.headers.authorization).toBe("Bearer cf-token");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req!.body)).toEqual({ tags: ["settings", "post:sleep"] });
    fake.answer = { status: 200, body: '{"success":false,"errors":[{"code":1134,"message":"Too many tags"}]}' };
    await expect(cloudflarePurger({ apiUrl: fake.url, zoneId: "ZONE9", token: "cf-token" }).purge(["a"])).rejects.toThrow(
      "Cloudflare refused the purge: Too many tags",
    );
  });

  it("Varnish: a BAN to every cache with the tags, space separated, in the tag header; a refusal names the cache", async () => {
    const one = await fakeVarnish();
    const two = await fakeVarnish();
    const purger = varnishPurger({ urls: [one.url, `${two.url}/`], method: "BAN", header: "X-Purge-Tags" });
    await purger.purge(["listing", "product:abc"]);
    for (const fake of [one, two]) {
      expect(fake.seen).toHaveLength(1);
      expect(fake.seen[0]!.method).toBe("BAN");
      expect(fake.seen[0]!.path).toBe("/");
      expect(fake.seen[0]!.headers["x-purge-tags"]).toBe("listing product:abc");
    }
    two.answer = { status: 405, body: "Not allowed." };
    await expect(purger.purge(["listing"])).rejects.toThrow(`Varnish at ${two.url}/ refused the purge: HTTP 405 Not allowed.`);
  });
});

describe("the purge job, from the change log", () => {
  it("purges what a change touches, once, in one request: a product's edit, its stock alone, the settings, a post", async () => {
    await drain();
    const fake = await fakeApi();
    const purger = fastlyPurger({ apiUrl: fake.url, serviceId: "S", token: "t" });
    const product = await makeProduct(test.db);
    const other = await makeProduct(test.db);
    await drain();

    // Nothing changed: no job, no request.
    expect(await queuePurgeIfChanged(test.db)).toBe(false);
    await runDueJobs(test.db, [cdnJobs(test.db, purger)]);
    expect(fake.seen).toHaveLength(0);

    await test.db.update(products).set({ name: "Renamed in the admin" }).where(eq(products.id, product.id));
    await lookAndRun(purger);
    expect(fake.seen.map((s) => s.headers["surrogate-key"])).toEqual([`listing product:${product.id}`]);

    // A sale's stock change: only that product's page (listings show whether it can be bought).
    await test.db.update(products).set({ stockQuantity: 7 }).where(eq(products.id, other.id));
    await lookAndRun(purger);
    expect(fake.seen.at(-1)!.headers["surrogate-key"]).toBe(`product:${other.id}`);

    await test.db.insert(siteSettings).values({ settingKey: "cdn_test", settingValue: { on: true } });
    await lookAndRun(purger);
    expect(fake.seen.at(-1)!.headers["surrogate-key"]).toBe("settings");

    const [post] = await test.db
      .insert(blogPosts)
      .values({ title: "Sleep well", slug: "sleep-well", content: "<p>Hi</p>", excerpt: "Hi", published: true })
      .returning();
    await lookAndRun(purger);
    expect(fake.seen.at(-1)!.headers["surrogate-key"]).toBe("blog");
    await test.db.update(blogPosts).set({ slug: "sleep-better" }).where(eq(blogPosts.id, post!.id));
    await lookAndRun(purger);
    expect(fake.seen.at(-1)!.headers["surrogate-key"]).toBe("blog post:sleep-better post:sleep-well");

    // Done with: nothing is sent twice.
    const sent = fake.seen.length;
    await lookAndRun(purger);
    expect(fake.seen).toHaveLength(sent);
  });

  it("retries a refused purge with the changes made meanwhile in the same job, and shows it to the owner once its tries are spent", async () => {
    await drain();
    const fake = await fakeApi({ status: 503, body: "Service Unavailable" });
    const purger = fastlyPurger({ apiUrl: fake.url, serviceId: "S", token: "t" });
    const a = await makeProduct(test.db);
    await lookAndRun(purger);
    expect(fake.seen).toHaveLength(1);
    let jobs = await purgeJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.attempts).toBe(1);
    expect(jobs[0]!.last_error).toContain("The CDN could not be purged: Fastly refused the purge: HTTP 503 Service Unavailable");

    // More saves while the CDN is down join the waiting job: still one job.
    await test.db.update(products).set({ priceCents: 1999 }).where(eq(products.id, a.id));
    expect(await queuePurgeIfChanged(test.db)).toBe(true);
    // Still one job, its tries and backoff kept (a save does not reset a failing purge).
    jobs = await purgeJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.attempts).toBe(1);

    // The CDN answers again: the next try sends everything since the last purge, in one request.
    fake.answer = { status: 200, body: "{}" };
    await makeDue();
    await runDueJobs(test.db, [cdnJobs(test.db, purger)]);
    expect(fake.seen.at(-1)!.headers["surrogate-key"]).toBe(`listing product:${a.id}`);
    expect(await purgeJobs()).toHaveLength(0);

    // A CDN that keeps refusing: after its last try the job is in the owner's Background jobs.
    fake.answer = { status: 500, body: "boom" };
    await test.db.update(products).set({ priceCents: 2999 }).where(eq(products.id, a.id));
    await queuePurgeIfChanged(test.db);
    for (let i = 0; i < PURGE_MAX_ATTEMPTS; i++) {
      // Every server's look at the log goes on meanwhile.
      await queuePurgeIfChanged(test.db);
      await makeDue();
      await runDueJobs(test.db, [cdnJobs(test.db, purger)]);
    }
    jobs = await purgeJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.attempts).toBe(PURGE_MAX_ATTEMPTS);
    const failed = (await listFailedJobRows(test.db)).find((j) => j.task === "cdn:purge");
    expect(failed?.name).toBe("Purge changed pages from the CDN");
    expect(failed?.error).toBe("The CDN could not be purged: Fastly refused the purge: HTTP 500 boom");
    await test.db.execute(sql`delete from graphile_worker._private_jobs where key = 'cdn:purge'`);
  });

  it("after an outage longer than the change log reaches, purges everything, and tells the owner to when that fails", async () => {
    await drain();
    const fake = await fakeApi({ status: 502, body: "Bad Gateway" });
    const purger = cloudflarePurger({ apiUrl: fake.url, zoneId: "Z", token: "t" });
    await makeProduct(test.db);
    // The last purge was an hour ago.
    await test.db.execute(sql`
      update shop_meta set value = jsonb_set(value, '{at}', to_jsonb((now() - make_interval(secs => ${LOG_REACH_MS / 1000 + 900}))::text))
       where key = 'cdn_purge_cursor'`);
    await expect(purgeChangedTags(test.db, purger)).rejects.toThrow(
      /^The CDN has not been purged since \d{4}-\d\d-\d\d \d\d:\d\d UTC, longer than the change log reaches: purge everything in the CDN's dashboard, then press Try again\./,
    );
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({ tags: ["shop"] });
    fake.answer = { status: 200, body: '{"success":true}' };
    expect(await purgeChangedTags(test.db, purger)).toEqual(["shop"]);
  });

  it("never holds up a save: a product is saved while a purge hangs on the CDN", async () => {
    await drain();
    const fake = await fakeVarnish();
    fake.hang = true;
    const purger = varnishPurger({ urls: [fake.url], method: "BAN", header: "X-Purge-Tags" });
    const product = await makeProduct(test.db);
    const purging = purgeChangedTags(test.db, purger).catch((err: Error) => err);
    while (fake.seen.length === 0) await new Promise((r) => setTimeout(r, 20));
    // The purge holds its cursor; the save and the next look at the log go on regardless.
    await test.db.update(products).set({ name: "Saved while purging" }).where(eq(products.id, product.id));
    expect(await queuePurgeIfChanged(test.db)).toBe(true);
    fake.hang = false;
    await fake.close();
    expect(String(await purging)).toContain("Varnish could not be reached");
    await test.db.execute(sql`delete from graphile_worker._private_jobs where key = 'cdn:purge'`);
  }, 30_000);
});
