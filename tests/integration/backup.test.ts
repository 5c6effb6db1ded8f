import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createBackup } from "~/server/platform/backup/backup.server";
import { BackupRefusedError, readJournal, type Manifest } from "~/server/platform/backup/format.server";
import { inspectBackup, restoreBackup } from "~/server/platform/backup/restore.server";
import { migrationsFolder } from "~/server/platform/db/client.server";
import { S3Storage } from "~/server/platform/storage/s3.server";
import { DiskStorage } from "~/server/platform/storage/storage.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { makePng } from "../factories/images";
import { openCheckout } from "../factories/orders";
import { makePost } from "../factories/posts";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * npm run db:backup / db:restore's modules (app/server/platform/backup) against real databases: a shop with
 * orders, products, a post and uploads is backed up and restored into a fresh database and a
 * fresh uploads folder; each refusal changes nothing; a backup taken while checkouts commit is one
 * snapshot.
 */
const t = useTestDatabase();
const MIGRATIONS = migrationsFolder();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-test-"));
const created: { drop: () => Promise<void> }[] = [];

afterAll(async () => {
  for (const c of clients.values()) await (await c).end().catch(() => {});
  for (const d of created) await d.drop().catch(() => {});
  fs.rmSync(tmp, { recursive: true, force: true });
});

const newDir = (name: string) => fs.mkdtempSync(path.join(tmp, `${name}-`));

/** A brand-new database with nothing in it (not the migrated template). */
async function emptyDatabase() {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${inject("runId")}_bk_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const drop = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  };
  created.push({ drop });
  return { url, name };
}

/**
 * One connection per database for the whole file: the restore's check compares 58 tables in two
 * databases, and a connection opened per query cost about 90 ms each (10 s of that test).
 */
const clients = new Map<string, Promise<pg.Client>>();
function clientFor(url: string): Promise<pg.Client> {
  let client = clients.get(url);
  if (!client) {
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => clients.delete(url));
    client = c.connect().then(() => c);
    clients.set(url, client);
  }
  return client;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  return (await (await clientFor(url)).query<T>(text, values)).rows;
}

/** Every relation outside the system schemas (none: the database is as empty as it was made). */
const relations = (url: string) =>
  query<{ name: string }>(
    url,
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%' and c.relkind in ('r','S','v','m')`,
  ).then((rows) => rows.map((r) => r.name));

/** A fingerprint of a table's whole content. */
async function tableDigest(url: string, table: string) {
  const [row] = await query<{ n: string; digest: string | null }>(
    url,
    `select count(*)::text as n, md5(string_agg(t::text, E'\\n' order by t::text)) as digest from public."${table}" t`,
  );
  return row!;
}

const files = (dir: string): string[] =>
  fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => e.name) : [];

const yes = async () => true;

function copyBackup(folder: string) {
  const copy = newDir("copy");
  fs.cpSync(folder, copy, { recursive: true });
  return copy;
}

describe("backup and restore", () => {
  let folder: string;
  let manifest: Manifest;
  let sourceStorage: DiskStorage;
  const made = {} as {
    productIds: string[];
    orderIds: string[];
    postId: string;
    uploadKey: string;
    upload: Buffer;
  };

  beforeAll(async () => {
    sourceStorage = new DiskStorage(newDir("uploads-source"));
    made.upload = await makePng(40, 30, "#2e86c1");
    const { key, url } = await sourceStorage.put(`product-${randomBytes(4).toString("hex")}.png`, made.upload, "image/png");
    made.uploadKey = key;
    await sourceStorage.put("seed/nested-image.webp", Buffer.from("not really a webp"), "image/webp");
    const duvet = await makeProduct(t.db, { name: "Backup Duvet", imageUrl: url, unlimitedStock: true, priceCents: 12_000 });
    const lamp = await makeProduct(t.db, { name: "Backup Lamp", stockQuantity: 7, priceCents: 4_500 });
    made.productIds = [duvet.id, lamp.id];
    made.orderIds = [];
    for (const lines of [[[duvet, 1]], [[duvet, 2], [lamp, 1]], [[lamp, 3]]] as [typeof duvet, number][][]) {
      const result = await openCheckout(t.db, lines);
      made.orderIds.push(result.orderId);
    }
    made.postId = (await makePost(t.db, { title: "Kept Through A Restore" })).id;
    ({ folder, manifest } = await createBackup({
      databaseUrl: t.url,
      storage: sourceStorage,
      into: newDir("backups"),
      shopVersion: "9.9.9-test",
      migrationsFolder: MIGRATIONS,
    }));
  });

  it("writes a dump of every table, the uploads and a manifest with the schema, version, time and checksums", async () => {
    expect(path.basename(folder)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    expect(fs.readdirSync(path.dirname(folder))).toEqual([path.basename(folder)]); // no .partial left
    const journal = readJournal(MIGRATIONS);
    expect(manifest.schema.tag).toBe(journal.at(-1)!.tag);
    expect(manifest.shopVersion).toBe("9.9.9-test");
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(10 * 60_000);
    expect(manifest.database.snapshot).toMatch(/one REPEATABLE READ, READ ONLY transaction/);
    const names = manifest.database.tables.map((x) => x.name);
    for (const table of ["orders", "order_items", "products", "blog_posts", "users", "shop_meta"]) expect(names).toContain(table);
    expect(manifest.database.tables.find((x) => x.name === "orders")!.rows).toBe(3);
    expect(manifest.database.skipped.map((s) => s.name)).toEqual(["storefront_changes"]);
    expect(manifest.uploads.files.map((u) => u.key).sort()).toEqual([made.uploadKey, "seed/nested-image.webp"].sort());
    for (const f of manifest.files) {
      expect(fs.statSync(path.join(folder, f.path)).size).toBe(f.bytes);
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(fs.readFileSync(path.join(folder, "uploads", made.uploadKey))).toEqual(made.upload);
  });

  it("restores into a fresh database and a fresh uploads folder: every order, product, post and upload is back", async () => {
    const target = await emptyDatabase();
    const uploads = new DiskStorage(newDir("uploads-restored"));
    let asked = "";
    const result = await restoreBackup({
      folder,
      databaseUrl: target.url,
      storage: uploads,
      migrationsFolder: MIGRATIONS,
      confirm: async ({ database }) => {
        asked = database;
        return true;
      },
    });
    expect(asked).toBe(target.name);
    expect(result.uploads).toBe(2);

    // Each table the backup holds is row for row what the source database held (shop_meta gains
    // the marker that keeps the demo seed away from a restored shop, checked below).
    for (const table of manifest.database.tables.filter((x) => x.name !== "shop_meta")) {
      expect(await tableDigest(target.url, table.name), table.name).toEqual(await tableDigest(t.url, table.name));
    }
    const metaSql = "select key, value::text from shop_meta where key <> 'demo_seeded' order by key";
    expect(await query(target.url, metaSql)).toEqual(await query(t.url, metaSql));
    const orders = await query<{ id: string; lines: number }>(
      target.url,
      "select o.id, (select count(*)::int from order_items i where i.order_id = o.id) as lines from orders o",
    );
    expect(orders.map((o) => o.id).sort()).toEqual([...made.orderIds].sort());
    expect(orders.map((o) => o.lines).sort()).toEqual([1, 1, 2]);
    const products = await query<{ id: string; name: string; image_url: string }>(target.url, "select id, name, image_url from products where id = any($1)", [made.productIds]);
    expect(products.map((p) => p.name).sort()).toEqual(["Backup Duvet", "Backup Lamp"]);
    expect(await query(target.url, "select title from blog_posts where id = $1", [made.postId])).toEqual([{ title: "Kept Through A Restore" }]);
    // The upload is back under its key, so the product's image URL still finds it.
    const duvet = products.find((p) => p.name === "Backup Duvet")!;
    expect(uploads.keyFromUrl(duvet.image_url)).toBe(made.uploadKey);
    expect(fs.readFileSync(uploads.resolve(made.uploadKey))).toEqual(made.upload);
    expect(fs.readFileSync(uploads.resolve("seed/nested-image.webp"), "utf8")).toBe("not really a webp");
    // Migrated as far as this code goes, and the sequences carry on after the restored rows.
    const [last] = await query<{ created_at: string }>(target.url, "select created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1");
    expect(Number(last!.created_at)).toBe(readJournal(MIGRATIONS).at(-1)!.when);
    const [counts] = await query<{ active_count: number }>(target.url, "select active_count from product_counts where category = 'Bedding'");
    expect(counts).toEqual((await query(t.url, "select active_count from product_counts where category = 'Bedding'"))[0]);
    // The restored shop is not seeded with the demo on the embedded database's first start.
    expect(await query(target.url, "select key from shop_meta where key = 'demo_seeded'")).toHaveLength(1);
    // Triggers work again after the load: a new product is counted.
    const before = await query<{ active_count: number }>(target.url, "select active_count from product_counts where category = 'Decor'");
    await query(target.url, "insert into products (name, category, sku) values ('After Restore', 'Decor', 'AFTER-1')");
    const after = await query<{ active_count: number }>(target.url, "select active_count from product_counts where category = 'Decor'");
    expect(after[0]!.active_count).toBe((before[0]?.active_count ?? 0) + 1);
  });

  describe("refuses, changing nothing", () => {
    async function expectRefusal(opts: { folder: string; url: string; message: RegExp }) {
      const uploadsDir = newDir("uploads-untouched");
      let asked = false;
      const err = await restoreBackup({
        folder: opts.folder,
        databaseUrl: opts.url,
        storage: new DiskStorage(uploadsDir),
        migrationsFolder: MIGRATIONS,
        confirm: async () => {
          asked = true;
          return true;
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BackupRefusedError);
      expect((err as Error).message).toMatch(opts.message);
      expect(asked).toBe(false); // refused before the question
      expect(files(uploadsDir)).toEqual([]);
      return err as Error;
    }

    it("into a database that is not empty", async () => {
      const digest = await tableDigest(t.url, "orders");
      const err = await expectRefusal({ folder, url: t.url, message: /is not empty \(.*public\./ });
      expect(err.message).toContain(t.url.split("/").pop()!);
      expect(await tableDigest(t.url, "orders")).toEqual(digest);
      // A migrated database with no row is not empty either: its tables are the shop's.
      const bare = await emptyDatabase();
      const pool = new pg.Pool({ connectionString: bare.url, max: 1 });
      await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
      await pool.end();
      const tablesBefore = await relations(bare.url);
      await expectRefusal({ folder, url: bare.url, message: /is not empty/ });
      expect(await relations(bare.url)).toEqual(tablesBefore);
    });

    it("when the folder lacks its manifest or part of its dump", async () => {
      const target = await emptyDatabase();
      const noManifest = copyBackup(folder);
      fs.rmSync(path.join(noManifest, "manifest.json"));
      await expectRefusal({ folder: noManifest, url: target.url, message: /has no manifest\.json/ });
      const noDump = copyBackup(folder);
      fs.rmSync(path.join(noDump, "database", "orders.copy.gz"));
      await expectRefusal({ folder: noDump, url: target.url, message: /lacks part of its dump: database\/orders\.copy\.gz is missing/ });
      const noDatabase = copyBackup(folder);
      fs.rmSync(path.join(noDatabase, "database"), { recursive: true });
      await expectRefusal({ folder: noDatabase, url: target.url, message: /lacks part of its dump/ });
      await expectRefusal({ folder: path.join(tmp, "no-such-backup"), url: target.url, message: /No backup folder/ });
      expect(await relations(target.url)).toEqual([]);
    });

    it("when a file does not match its checksum", async () => {
      const target = await emptyDatabase();
      const damaged = copyBackup(folder);
      const file = path.join(damaged, "database", "products.copy.gz");
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 5] ^= 0xff; // same size, other content
      fs.writeFileSync(file, bytes);
      await expectRefusal({ folder: damaged, url: target.url, message: /products\.copy\.gz does not match its checksum/ });
      const damagedUpload = copyBackup(folder);
      fs.appendFileSync(path.join(damagedUpload, "uploads", made.uploadKey), "x");
      await expectRefusal({ folder: damagedUpload, url: target.url, message: /the manifest says/ });
      expect(await relations(target.url)).toEqual([]);
    });

    it("when the backup comes from a newer schema than this code knows", async () => {
      const target = await emptyDatabase();
      const future = copyBackup(folder);
      const m = JSON.parse(fs.readFileSync(path.join(future, "manifest.json"), "utf8")) as Manifest;
      m.schema = { tag: "9999_from_the_future", createdAt: Date.now() + 1e9, hash: "0".repeat(64) };
      fs.writeFileSync(path.join(future, "manifest.json"), JSON.stringify(m));
      await expectRefusal({ folder: future, url: target.url, message: /newer schema \(migration 9999_from_the_future.*latest \d{4}_/ });
      expect(await relations(target.url)).toEqual([]);
    });

    it("when the restore is not confirmed", async () => {
      const target = await emptyDatabase();
      const uploadsDir = newDir("uploads-unconfirmed");
      const err = await restoreBackup({
        folder,
        databaseUrl: target.url,
        storage: new DiskStorage(uploadsDir),
        migrationsFolder: MIGRATIONS,
        confirm: async () => false,
      }).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/not confirmed/);
      expect(await relations(target.url)).toEqual([]);
      expect(files(uploadsDir)).toEqual([]);
    });
  });

  it("brings a backup from an older schema up to date", async () => {
    // A shop whose database stopped at an older migration (a copy of the journal cut there).
    const journal = readJournal(MIGRATIONS);
    const older = journal.at(-3)!;
    const oldMigrations = newDir("old-migrations");
    fs.cpSync(MIGRATIONS, oldMigrations, { recursive: true });
    const raw = JSON.parse(fs.readFileSync(path.join(oldMigrations, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    raw.entries = raw.entries.slice(0, older.idx + 1);
    fs.writeFileSync(path.join(oldMigrations, "meta", "_journal.json"), JSON.stringify(raw));
    const source = await emptyDatabase();
    const pool = new pg.Pool({ connectionString: source.url, max: 1 });
    await migrate(drizzle(pool), { migrationsFolder: oldMigrations });
    await pool.end();
    await query(source.url, "insert into products (name, category, sku, price_cents) values ('Old Schema Throw', 'Bedding', 'OLD-1', 3900)");

    const old = await createBackup({
      databaseUrl: source.url,
      storage: new DiskStorage(newDir("uploads-old")),
      into: newDir("backups-old"),
      shopVersion: "0.0.1",
      migrationsFolder: oldMigrations,
    });
    expect(old.manifest.schema.tag).toBe(older.tag);

    const target = await emptyDatabase();
    await restoreBackup({ folder: old.folder, databaseUrl: target.url, storage: new DiskStorage(newDir("uploads-old-restored")), migrationsFolder: MIGRATIONS, confirm: yes });
    expect(await query(target.url, "select name, price_cents from products")).toEqual([{ name: "Old Schema Throw", price_cents: 3900 }]);
    const applied = await query<{ created_at: string }>(target.url, "select created_at::text from drizzle.__drizzle_migrations order by created_at");
    expect(applied.map((a) => Number(a.created_at))).toEqual(journal.map((e) => e.when));
  });

  it("backs up and restores S3 uploads (a download of every object, put back with its content type)", async () => {
    let s3: FakeS3 | undefined;
    try {
      s3 = await startFakeS3({ buckets: ["site-assets", "restored"] });
      const config = (bucket: string) => ({
        endpoint: s3!.endpoint,
        region: "us-east-1",
        bucket,
        accessKeyId: s3!.accessKeyId,
        secretAccessKey: s3!.secretAccessKey,
        forcePathStyle: true,
      });
      const source = new S3Storage(config("site-assets"));
      const png = await makePng(8, 8);
      await source.put("logo-1.png", png, "image/png");
      await source.put("blog/cover-2.webp", Buffer.from("webp bytes"), "image/webp");
      const { folder: s3Folder, manifest: s3Manifest } = await createBackup({
        databaseUrl: t.url,
        storage: source,
        into: newDir("backups-s3"),
        shopVersion: "s3",
        migrationsFolder: MIGRATIONS,
      });
      expect(s3Manifest.uploads.storage).toBe("s3");
      expect(s3Manifest.uploads.files.map((f) => [f.key, f.contentType]).sort()).toEqual([
        ["blog/cover-2.webp", "image/webp"],
        ["logo-1.png", "image/png"],
      ]);
      const target = await emptyDatabase();
      const restored = new S3Storage(config("restored"));
      await restoreBackup({ folder: s3Folder, databaseUrl: target.url, storage: restored, migrationsFolder: MIGRATIONS, confirm: yes });
      expect(await restored.get("logo-1.png")).toEqual({ body: png, contentType: "image/png" });
      expect((await restored.get("blog/cover-2.webp"))?.body.toString()).toBe("webp bytes");
    } finally {
      await s3?.close();
    }
  });

  it("is one snapshot while checkouts commit: no order without its lines, and an order committed mid-backup is wholly absent", async () => {
    const throwProduct = await makeProduct(t.db, { name: "Busy Throw", unlimitedStock: true, priceCents: 2_000 });
    const pillow = await makeProduct(t.db, { name: "Busy Pillow", unlimitedStock: true, priceCents: 1_500 });
    let running = true;
    let placed = 0;
    // Checkouts (an order and its lines in one transaction) commit all through the backup.
    const shoppers = Array.from({ length: 3 }, async () => {
      while (running) {
        await openCheckout(t.db, [
          [throwProduct, 1],
          [pillow, 2],
        ]);
        placed++;
      }
    });
    let midBackupOrder = "";
    const { folder: busyFolder, manifest: busy } = await createBackup({
      databaseUrl: t.url,
      storage: sourceStorage,
      into: newDir("backups-busy"),
      shopVersion: "busy",
      migrationsFolder: MIGRATIONS,
      // order_items is read before orders: an order committed between the two would be in
      // orders without its lines if the tables were not read in one snapshot.
      afterTable: async (table) => {
        if (table === "order_items") midBackupOrder = (await openCheckout(t.db, [[throwProduct, 1], [pillow, 1]])).orderId;
        await new Promise((r) => setTimeout(r, 5));
      },
    });
    running = false;
    await Promise.all(shoppers);
    expect(placed).toBeGreaterThan(0);
    expect(midBackupOrder).not.toBe("");

    const target = await emptyDatabase();
    await restoreBackup({ folder: busyFolder, databaseUrl: target.url, storage: new DiskStorage(newDir("uploads-busy")), migrationsFolder: MIGRATIONS, confirm: yes });
    const orphans = await query(target.url, "select o.id from orders o where not exists (select 1 from order_items i where i.order_id = o.id)");
    expect(orphans).toEqual([]);
    const partial = await query(
      target.url,
      `select o.id from orders o join order_items i on i.order_id = o.id join products p on p.id = i.product_id
        where p.name in ('Busy Throw', 'Busy Pillow') group by o.id having count(*) <> 2`,
    );
    expect(partial).toEqual([]);
    expect(await query(target.url, "select id from orders where id = $1", [midBackupOrder])).toEqual([]);
    const restoredOrders = busy.database.tables.find((x) => x.name === "orders")!.rows;
    expect(restoredOrders).toBeGreaterThanOrEqual(3);
    expect((await query(target.url, "select id from orders")).length).toBe(restoredOrders);
  }, 120_000);

  it("inspects a folder without touching any database", async () => {
    const m = await inspectBackup(folder, MIGRATIONS);
    expect(m.schema.tag).toBe(manifest.schema.tag);
  });
});
