import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { blogPosts, categories, products, shopMeta, siteSettings, user } from "~/server/platform/db/schema";
import { seedBase, seedDemo } from "~/server/seed/seed.server";
import { createTestDatabase, useTestDatabase } from "../setup/database";

describe("migrations", () => {
  it("apply to an empty database, twice without change, with pg_trgm and every table", async () => {
    const adminUrl = inject("pgAdminUrl");
    const name = `t_${inject("runId")}_empty`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      await runMigrations(url.toString());
      await runMigrations(url.toString());
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      const tables = await c.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' order by 1",
      );
      const names = tables.rows.map((r) => r.table_name);
      for (const t of ["products", "categories", "orders", "order_items", "blog_posts", "site_settings", "users", "sessions", "profiles", "mail_outbox", "contact_messages", "newsletter_subscriptions", "variation_types", "variation_values", "product_variations"]) {
        expect(names).toContain(t);
      }
      const ext = await c.query("select 1 from pg_extension where extname = 'pg_trgm'");
      expect(ext.rowCount).toBe(1);
      const version = await c.query<{ server_version_num: string }>("show server_version_num");
      expect(Number(version.rows[0]!.server_version_num)).toBeGreaterThanOrEqual(150000);
      await c.end();
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});

describe("the database rules", () => {
  const t = useTestDatabase();

  it("refuses negative prices and stock, and keeps SKUs unique when set", async () => {
    await expect(t.db.insert(products).values({ name: "Bad", priceCents: -1 })).rejects.toThrow();
    await expect(t.db.insert(products).values({ name: "Bad", stockQuantity: -5 })).rejects.toThrow();
    await t.db.insert(products).values([{ name: "A", sku: "" }, { name: "B", sku: "" }, { name: "C", sku: "X-1" }]);
    await expect(t.db.insert(products).values({ name: "D", sku: "X-1" })).rejects.toThrow();
  });

  it("keeps blog slugs unique and category names unique regardless of case", async () => {
    await t.db.insert(blogPosts).values({ title: "One", slug: "same", content: "<p>x</p>" });
    await expect(t.db.insert(blogPosts).values({ title: "Two", slug: "same", content: "<p>y</p>" })).rejects.toThrow();
    await t.db.insert(categories).values({ name: "Throws" });
    await expect(t.db.insert(categories).values({ name: "THROWS" })).rejects.toThrow();
  });
});

describe("the seed", () => {
  const t = useTestDatabase();

  it("creates the demo shop once; running it again changes nothing", async () => {
    const first = await seedDemo(t.db);
    expect(first.seeded).toBe(true);
    if (!first.seeded) return;
    expect(first.admin.password.length).toBeGreaterThanOrEqual(12);

    const count = async () => {
      const [row] = await t.db.execute<{ p: number; b: number; u: number; s: number; c: number }>(sql`
        select (select count(*)::int from ${products}) as p, (select count(*)::int from ${blogPosts}) as b,
               (select count(*)::int from ${user}) as u, (select count(*)::int from ${siteSettings}) as s,
               (select count(*)::int from ${categories}) as c`).then((r) => r.rows);
      return row;
    };
    const before = await count();
    expect(before!.p).toBeGreaterThanOrEqual(60);
    expect(before!.b).toBeGreaterThanOrEqual(16);
    expect(before!.u).toBe(1);
    expect(before!.s).toBe(5);
    expect(before!.c).toBe(5);

    const second = await seedDemo(t.db);
    expect(second.seeded).toBe(false);
    await seedBase(t.db);
    expect(await count()).toEqual(before);
  }, 120_000); // Seeding draws and encodes the demo images: 19 s on an idle 2-core machine, past 30 s at a load of 10.

  it("gives a believable catalogue: every category, featured, inactive, sold-out, unlimited and sale items", async () => {
    const rows = await t.db.select().from(products);
    const cats = new Set(rows.map((r) => r.category));
    for (const c of ["Bedding", "Furniture", "Decor", "Accessories", "Imported"]) expect(cats).toContain(c);
    expect(rows.some((r) => r.featured)).toBe(true);
    expect(rows.some((r) => !r.active)).toBe(true);
    expect(rows.some((r) => !r.unlimitedStock && r.stockQuantity === 0)).toBe(true);
    expect(rows.some((r) => r.unlimitedStock)).toBe(true);
    expect(rows.some((r) => r.originalPriceCents !== null && r.originalPriceCents > r.priceCents)).toBe(true);
    expect(rows.every((r) => r.imageUrl.startsWith("/media/seed/"))).toBe(true);
    expect(Math.max(...rows.map((r) => r.colors.length))).toBeGreaterThanOrEqual(4);
    const posts = await t.db.select().from(blogPosts);
    expect(posts.filter((p) => p.published).length).toBeGreaterThanOrEqual(14);
    expect(posts.filter((p) => !p.published).length).toBeGreaterThanOrEqual(2);
    const marker = await t.db.select().from(shopMeta);
    expect(marker.map((m) => m.key).sort()).toEqual(["base_seeded", "demo_seeded"]);
  });
});

describe("a clean second database", () => {
  it("starts with the base categories only", async () => {
    const d = await createTestDatabase();
    try {
      await seedBase(d.db);
      expect(await d.db.select().from(products)).toHaveLength(0);
      expect((await d.db.select().from(categories)).map((c) => c.name).sort()).toEqual(
        ["Accessories", "Bedding", "Decor", "Furniture", "Imported"],
      );
    } finally {
      await d.drop();
    }
  });
});
