import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import type { Env } from "~/server/platform/env.server";
import { checkReplica } from "~/server/platform/ops/doctor.server";
import { makeProduct } from "../factories/products";
import { interruptServer, type ShopProcess, spawnShop, tempDataDir, waitFor } from "./faults-harness";
import { freePort } from "./harness";

/**
 * The shop on a primary and a real streaming replica (DATABASE_REPLICA_URL, docs/decisions/0041,
 * docs/deploy.md "Read replica"): the storefront reads on the replica, shows a change saved on the
 * primary at once even while the replica has not replayed it, and keeps answering from the
 * primary while the replica is away. Needs PostgreSQL's own binaries with pg_basebackup (Debian
 * package postgresql-15); the embedded PostgreSQL ships none.
 */
const BIN = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"].find((dir) =>
  ["initdb", "postgres", "pg_basebackup"].every((b) => fs.existsSync(path.join(dir, b))),
);
if (!BIN) console.warn("tests/e2e/replica.test.ts skipped: no PostgreSQL with pg_basebackup under /usr/lib/postgresql (apt-get install -y postgresql-15).");

// PostgreSQL refuses to run as root: as root, its servers run as `nobody`.
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const runAs = asRoot ? { uid: NOBODY, gid: NOBODY } : {};

function run(bin: string, args: string[]) {
  const out = spawnSync(path.join(BIN!, bin), args, { ...runAs, encoding: "utf8", cwd: os.tmpdir() });
  if (out.status !== 0) throw new Error(`${bin} failed: ${out.stderr || out.stdout}`);
}

function ownedFolder(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (asRoot) fs.chownSync(dir, NOBODY, NOBODY);
  fs.chmodSync(dir, 0o700);
  return dir;
}

type Server = { port: number; dir: string; url: (db?: string) => string; start: () => Promise<void>; stop: () => Promise<void> };

function server(dir: string, port: number): Server {
  let child: ChildProcess | null = null;
  const url = (db = "shop") => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const start = async () => {
    child = spawn(
      path.join(BIN!, "postgres"),
      ["-D", dir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"],
      { ...runAs, stdio: "ignore" },
    );
    await waitFor(`PostgreSQL on ${port} to accept connections`, async () => {
      const c = new pg.Client({ connectionString: url("postgres") });
      try {
        await c.connect();
        return true;
      } finally {
        await c.end().catch(() => {});
      }
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    await interruptServer(running);
  };
  return { port, dir, url, start, stop };
}

let primary: Server;
let standby: Server;
let db: Database;
let replica: pg.Client;
let shop: ShopProcess;
const dirs: string[] = [];
let product: { id: string; name: string };

/** The replica's clock, to ask later what the shop read there since. */
async function replicaNow(): Promise<string> {
  const { rows } = await replica.query<{ t: string }>("select clock_timestamp()::text as t");
  return rows[0]!.t;
}

/**
 * The shop's connections on the replica whose last statement began after `since` and was a
 * storefront read (a query, or the commit of a search's read-only transaction), not the shop asking
 * the replica how far it has replayed.
 */
async function storefrontReadsOnReplica(since: string): Promise<number> {
  const { rows } = await replica.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = 'shop' and pid <> pg_backend_pid() and backend_type = 'client backend'
        and query_start > $1::timestamptz and query !~ 'pg_last_wal_replay_lsn'`,
    [since],
  );
  return rows[0]!.n;
}

let asked = 0;
/** A listing search no one asked for before: rendered afresh, never from the page cache. */
async function freshSearch() {
  const res = await fetch(`${shop.baseUrl}/shop?search=percale&n=${++asked}`);
  return { status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text() };
}

describe.skipIf(!BIN)("the storefront on a streaming read replica", () => {
  beforeAll(async () => {
    primary = server(ownedFolder("shop-primary-"), await freePort());
    dirs.push(primary.dir);
    run("initdb", ["-D", primary.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    // initdb's pg_hba.conf already lets 127.0.0.1 replicate (trust); the WAL must carry enough for a standby.
    fs.appendFileSync(path.join(primary.dir, "postgresql.conf"), "\nwal_level = replica\nmax_wal_senders = 4\n");
    await primary.start();
    const admin = new pg.Client({ connectionString: primary.url("postgres") });
    await admin.connect();
    await admin.query("create database shop");
    await admin.end();
    await runMigrations(primary.url());
    db = createDatabase(primary.url(), 2);
    product = await makeProduct(db, { name: "Replica Percale Sheet", priceCents: 5400, stockQuantity: 5 });

    standby = server(path.join(ownedFolder("shop-standby-"), "data"), await freePort());
    dirs.push(path.dirname(standby.dir));
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", standby.dir, "-R", "-X", "stream", "-c", "fast", "--no-sync"]);
    await standby.start();
    replica = new pg.Client({ connectionString: standby.url() });
    await replica.connect();

    const dataDir = tempDataDir();
    dirs.push(dataDir);
    shop = await spawnShop({ databaseUrl: primary.url(), dataDir, env: { DATABASE_REPLICA_URL: standby.url() } });
  }, 90_000);

  afterAll(async () => {
    await shop?.stop();
    await replica?.end().catch(() => {});
    await db?.$client.end();
    await standby?.stop();
    await primary?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves the listing and the product page with reads on the replica", async () => {
    const { rows } = await replica.query<{ standby: boolean }>("select pg_is_in_recovery() as standby");
    expect(rows[0]!.standby).toBe(true);
    const since = await replicaNow();
    const page = await fetch(`${shop.baseUrl}/product/${product.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Replica Percale Sheet");
    const listing = await freshSearch();
    expect(listing.status).toBe(200);
    expect(listing.html).toContain("Replica Percale Sheet");
    expect(await storefrontReadsOnReplica(since), "the shop's product reads on the replica").toBeGreaterThan(0);
    // npm run doctor knows it for what it is.
    const doctor = await checkReplica({ DATABASE_REPLICA_URL: standby.url() } as Env);
    expect(doctor.status, doctor.summary).toBe("ok");
    expect(doctor.summary).toMatch(/^a standby at 127\.0\.0\.1:\d+\/\S+: (last replayed change \d+ s ago|nothing replayed yet); the storefront reads there while it keeps up$/);
  });

  it("shows a product saved on the primary on the next request, even while the replica has not replayed it", async () => {
    expect((await fetch(`${shop.baseUrl}/product/${product.id}`)).status).toBe(200);
    expect((await fetch(`${shop.baseUrl}/product/${product.id}`)).headers.get("x-page-cache")).toBe("hit");
    await replica.query("select pg_wal_replay_pause()");
    const paused = await replicaNow();
    try {
      await db.$client.query("update products set name = 'Replica Percale Sheet Renamed' where id = $1", [product.id]);
      const after = await fetch(`${shop.baseUrl}/product/${product.id}`);
      expect(after.status).toBe(200);
      expect(await after.text()).toContain("Replica Percale Sheet Renamed");
      // The replica still holds the old name: the page came from the primary.
      const { rows } = await replica.query<{ name: string }>("select name from products where id = $1", [product.id]);
      expect(rows[0]!.name).toBe("Replica Percale Sheet");
      expect((await freshSearch()).html).toContain("Replica Percale Sheet Renamed");
      expect(await storefrontReadsOnReplica(paused), "product reads on a replica behind the change").toBe(0);
    } finally {
      await replica.query("select pg_wal_replay_resume()");
    }
    // Caught up, the replica serves the storefront again.
    await waitFor("the replica to replay the rename", async () => {
      const { rows } = await replica.query<{ name: string }>("select name from products where id = $1", [product.id]);
      return rows[0]!.name === "Replica Percale Sheet Renamed";
    });
    const caughtUp = await replicaNow();
    await waitFor("a listing read on the replica", async () => {
      expect((await freshSearch()).html).toContain("Replica Percale Sheet Renamed");
      return (await storefrontReadsOnReplica(caughtUp)) > 0;
    });
  });

  it("answers from the primary while the replica is away, and goes back to it once it is back", async () => {
    await replica.end();
    await standby.stop();
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await freshSearch();
        expect(answer.status).toBe(200);
        expect(answer.html).toContain("Replica Percale Sheet Renamed");
      }
      const product200 = await fetch(`${shop.baseUrl}/product/${product.id}?from=primary`);
      expect(product200.status).toBe(200);
      // Said once, not per request.
      expect(shop.output().match(/read replica is unreachable/g)?.length ?? 0).toBe(1);
    } finally {
      await standby.start();
      replica = new pg.Client({ connectionString: standby.url() });
      await replica.connect();
    }
    const restarted = await replicaNow();
    await waitFor(
      "storefront reads on the restarted replica",
      async () => {
        expect((await freshSearch()).status).toBe(200);
        return (await storefrontReadsOnReplica(restarted)) > 0;
      },
      20_000,
    );
  });
});
