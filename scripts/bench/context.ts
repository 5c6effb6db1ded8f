import fs from "node:fs";
import pg from "pg";
import type { BenchOptions } from "./options";
import type { RunningShop } from "./shop";
import { request } from "./http";

export type Samples = {
  /** Active products, in a shuffled order, for product pages and carts. */
  productIds: string[];
  /** Published posts' slugs. */
  slugs: string[];
};

export type BenchContext = {
  opts: BenchOptions;
  log: (m: string) => void;
  shop: RunningShop;
  databaseUrl: string;
  samples: Samples;
  admin: { email: string; password: string };
  /** A signed-up customer (email confirmed), for the signed-in measurements. */
  customer: { email: string; password: string };
};

export async function loadSamples(url: string, n = 500): Promise<Samples> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // setseed keeps the same sample (and so the same pages) from run to run.
    await client.query("select setseed(0.42)");
    const products = await client.query<{ id: string }>("select id from products where active order by random() limit $1", [n]);
    const posts = await client.query<{ slug: string }>("select slug from blog_posts where published order by random() limit $1", [n]);
    return { productIds: products.rows.map((r) => r.id), slugs: posts.rows.map((r) => r.slug) };
  } finally {
    await client.end();
  }
}

/** The status a route answers right now; 404 means the feature behind it is not built yet. */
export async function probe(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  try {
    const headers = { "accept-encoding": "identity", ...init.headers };
    const res = await request(url, { ...init, headers, keepBody: true, timeoutMs: 30_000 });
    return { status: res.status, body: res.body, location: String(res.headers.location ?? "") };
  } catch (err) {
    return { status: 0, body: (err as Error).message, location: "" };
  }
}

/** Whether app/routes.ts maps a URL pattern (e.g. "product/:id"), for clearer skip notes. */
export function routeDeclared(pattern: string): boolean {
  try {
    return fs.readFileSync("app/routes.ts", "utf8").includes(`"${pattern}"`);
  } catch {
    return false;
  }
}

export function notBuiltNote(what: string, path: string, status: number) {
  return status === 404
    ? `${what} skipped: GET ${path} answered 404, so the feature is not built yet.`
    : `${what} skipped: GET ${path} answered ${status || "no response"}.`;
}
