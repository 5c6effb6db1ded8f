import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createDatabase } from "../../app/server/platform/db/client.server";
import { seedDemo } from "../../app/server/seed/seed.server";
import { seeded, type Random } from "./random";
import {
  ADJECTIVES, CATEGORY_SHARES, COLORS, FINISHES, MATERIALS, NOUNS, PLACES, POST_TOPICS, RARE_MATERIAL_SHARE,
  RARE_MATERIALS, ROOMS, SENTENCES, TAGS, type Category,
} from "./words";

export type GeneratedProduct = {
  name: string;
  /** What a unit costs the shop (the stock report's value at cost); null for a tenth, as when not given. */
  costCents: number | null;
  description: string;
  category: Category;
  priceCents: number;
  originalPriceCents: number | null;
  sku: string;
  imageUrl: string;
  featured: boolean;
  active: boolean;
  unlimitedStock: boolean;
  stockQuantity: number;
  rating: number;
  reviewCount: number;
  colors: string[];
  tags: string[];
  createdAt: Date;
};

const PRICE_RANGE: Record<Category, [number, number]> = {
  Bedding: [2_500, 39_000],
  Furniture: [9_000, 180_000],
  Decor: [1_500, 45_000],
  Accessories: [900, 12_000],
  Imported: [1_000, 30_000],
};

function category(r: Random): Category {
  let x = r.next();
  for (const [c, share] of CATEGORY_SHARES) {
    if ((x -= share) < 0) return c;
  }
  return "Bedding";
}

function sentence(r: Random, words: Record<string, string>) {
  return r.pick(SENTENCES).replace(/\{(\w+)\}/g, (_, k: string) => words[k] ?? "");
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
const EPOCH = Date.UTC(2026, 0, 1);

/** Product number `i` (deterministic for a given seed stream). */
export function generateProduct(r: Random, i: number, images: string[]): GeneratedProduct {
  const cat = category(r);
  const material = r.chance(RARE_MATERIAL_SHARE) ? r.pick(RARE_MATERIALS) : r.pick(MATERIALS);
  const finish = r.pick(FINISHES);
  const noun = r.pick(NOUNS[cat]);
  const color = r.pick(COLORS);
  const name = r.chance(0.4) ? `${finish} ${material} ${noun} in ${color}` : `${finish} ${material} ${noun}`;
  const words = { material: material.toLowerCase(), finish: finish.toLowerCase(), noun: noun.toLowerCase(), color, place: r.pick(PLACES), adj: r.pick(ADJECTIVES), room: r.pick(ROOMS) };
  const description = Array.from({ length: r.int(2, 4) }, () => sentence(r, { ...words, adj: r.pick(ADJECTIVES) })).join(" ");
  const [lo, hi] = PRICE_RANGE[cat];
  // Prices cluster low like a real catalogue, ending in 00 or 50 cents.
  const priceCents = Math.round((lo + (hi - lo) * r.next() ** 2) / 50) * 50;
  const onSale = r.chance(0.2);
  // From the product number, not the seeded stream, so the rest of the catalogue stays as it was.
  const costShare = 0.3 + 0.3 * (((i * 2654435761) >>> 0) % 1000) / 1000;
  const unlimitedStock = r.chance(0.25);
  const outOfStock = !unlimitedStock && r.chance(0.08);
  return {
    name,
    description,
    category: cat,
    priceCents,
    costCents: i % 10 === 0 ? null : Math.max(1, Math.round(priceCents * costShare)),
    originalPriceCents: onSale ? Math.round((priceCents * (1.15 + r.next() * 0.4)) / 100) * 100 : null,
    sku: `BENCH-${cat.slice(0, 3).toUpperCase()}-${String(i).padStart(6, "0")}`,
    imageUrl: images.length ? images[i % images.length]! : "",
    featured: r.chance(0.1),
    active: !r.chance(0.05),
    unlimitedStock,
    stockQuantity: unlimitedStock || outOfStock ? 0 : r.int(1, 250),
    rating: Math.round(r.next() * 50) / 10,
    reviewCount: r.chance(0.2) ? 0 : r.int(1, 600),
    colors: r.sample(COLORS, r.int(1, 3)),
    tags: r.sample(TAGS, r.int(0, 3)),
    createdAt: new Date(EPOCH - Math.floor(r.next() * 2 * YEAR_MS)),
  };
}

/** COPY's text format: tab-separated, backslash escapes, \N for NULL. */
const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
const arr = (values: string[]) => `{${values.map((v) => `"${v.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`;

export const PRODUCT_COPY_COLUMNS =
  "name, description, category, price_cents, cost_cents, original_price_cents, sku, image_url, featured, active, unlimited_stock, stock_quantity, rating, review_count, colors, tags, created_at, updated_at";

export function productCopyLine(p: GeneratedProduct): string {
  const at = p.createdAt.toISOString();
  return [
    esc(p.name), esc(p.description), p.category, p.priceCents, p.costCents ?? "\\N", p.originalPriceCents ?? "\\N", esc(p.sku), esc(p.imageUrl),
    p.featured, p.active, p.unlimitedStock, p.stockQuantity, p.rating, p.reviewCount, esc(arr(p.colors)), esc(arr(p.tags)), at, at,
  ].join("\t") + "\n";
}

/** Streams rows into `table` with COPY FROM STDIN, in chunks so memory stays flat. */
export async function copyRows(client: pg.Client | pg.PoolClient, table: string, columns: string, lines: Iterable<string>) {
  async function* chunks() {
    let buf = "";
    for (const line of lines) {
      buf += line;
      if (buf.length > 256 * 1024) {
        yield buf;
        buf = "";
      }
    }
    if (buf) yield buf;
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`copy ${table} (${columns}) from stdin`)));
}

function* productLines(count: number, images: string[]) {
  const r = seeded(42);
  for (let i = 1; i <= count; i++) yield productCopyLine(generateProduct(r, i, images));
}

function* postLines(count: number, images: string[]) {
  const r = seeded(7);
  for (let i = 1; i <= count; i++) {
    const topic = r.pick(POST_TOPICS);
    const room = r.pick(ROOMS);
    const title = `${topic}: ${r.pick(ADJECTIVES)} ideas for the ${room} (no. ${i})`;
    const slug = `${topic}-${room}-${i}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    const words = () => ({ material: r.pick(MATERIALS).toLowerCase(), finish: r.pick(FINISHES).toLowerCase(), noun: r.pick(NOUNS.Bedding).toLowerCase(), color: r.pick(COLORS), place: r.pick(PLACES), adj: r.pick(ADJECTIVES), room });
    const paragraphs = Array.from({ length: r.int(5, 9) }, () =>
      `<p>${Array.from({ length: r.int(3, 5) }, () => sentence(r, words())).join(" ")}</p>`,
    );
    const content = `<h2>${topic}</h2>${paragraphs.slice(0, 3).join("")}<h2>In practice</h2>${paragraphs.slice(3).join("")}`;
    const excerpt = sentence(r, words());
    const at = new Date(EPOCH - Math.floor(r.next() * 3 * YEAR_MS)).toISOString();
    yield [
      esc(title), slug, esc(excerpt), esc(content), images.length ? esc(images[i % images.length]!) : "\\N",
      esc(arr(r.sample(TAGS, r.int(1, 3)))), r.chance(0.03), !r.chance(0.1), esc(title), esc(excerpt), at, at,
    ].join("\t") + "\n";
  }
}

export type CatalogueStats = { products: number; activeProducts: number; demoProducts: number; posts: number; publishedPosts: number; seconds: number };

/**
 * The bench catalogue: the demo seed (settings, categories, images the pages can show) plus
 * `products` generated products and `posts` generated posts, loaded with COPY, then
 * VACUUM ANALYZE so the planner and the visibility map look like a settled production table.
 */
export async function fillCatalogue(url: string, opts: { products: number; posts: number; log: (m: string) => void }): Promise<CatalogueStats> {
  const started = Date.now();
  const db = createDatabase(url, 2);
  try {
    opts.log("Demo seed (settings, categories, images)…");
    await seedDemo(db);
  } finally {
    await db.$client.end();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const demo = await client.query<{ n: string }>("select count(*) as n from products");
    const productImages = (await client.query<{ u: string }>("select distinct image_url as u from products where image_url <> '' order by 1")).rows.map((r) => r.u);
    const postImages = (await client.query<{ u: string }>("select distinct featured_image_url as u from blog_posts where featured_image_url is not null order by 1")).rows.map((r) => r.u);

    opts.log(`Generating ${opts.products.toLocaleString("en-US")} products (COPY)…`);
    const t0 = Date.now();
    await copyRows(client, "products", PRODUCT_COPY_COLUMNS, productLines(opts.products, productImages));
    opts.log(`  products loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await copyRows(
      client,
      "blog_posts",
      "title, slug, excerpt, content, featured_image_url, tags, featured, published, meta_title, meta_description, created_at, updated_at",
      postLines(opts.posts, postImages),
    );
    opts.log("VACUUM ANALYZE…");
    await client.query("vacuum (analyze) products");
    await client.query("vacuum (analyze) blog_posts");
    await client.query("analyze");
    const counts = await client.query<{ p: string; ap: string; b: string; pb: string }>(
      `select (select count(*) from products) p, (select count(*) from products where active) ap,
              (select count(*) from blog_posts) b, (select count(*) from blog_posts where published) pb`,
    );
    const c = counts.rows[0]!;
    return {
      products: Number(c.p),
      activeProducts: Number(c.ap),
      demoProducts: Number(demo.rows[0]!.n),
      posts: Number(c.b),
      publishedPosts: Number(c.pb),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await client.end();
  }
}
