import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { listShopProducts, parseShopFilters } from "~/server/catalog/products/storefront.server";

/** One statement as the shop sent it to PostgreSQL. */
export type Statement = { text: string; values?: unknown[]; rowMode?: string };

/**
 * The statements the shop's own search (`listShopProducts`, the first page of /shop?search=…)
 * sends for `term`, in order, its transaction's begin and commit included: recorded by running
 * that code once against the bench database on a client that notes every query. The floor
 * server replays them with plain `pg`, so the floor runs the very same search as the shop.
 */
export async function recordSearch(databaseUrl: string, term: string): Promise<Statement[]> {
  const statements: Statement[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[]; rowMode?: string }, unknown[] | undefined];
    statements.push(
      typeof first === "string"
        ? { text: first, ...(second ? { values: second } : {}) }
        : { text: first.text, ...((first.values ?? second) ? { values: first.values ?? second } : {}), ...(first.rowMode ? { rowMode: first.rowMode } : {}) },
    );
    return query(...args);
  };
  // drizzle on one client: its transaction runs on that client too.
  const db = drizzle(client);
  try {
    await listShopProducts(db as never, parseShopFilters(new URLSearchParams({ search: term }), []), { offset: 0, limit: 24 });
  } finally {
    await client.end();
  }
  return statements;
}

/** Written where the floor server (a separate process) reads it: its path. */
export function writeStatements(statements: Statement[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-floor-")), "search.json");
  fs.writeFileSync(file, JSON.stringify(statements));
  return file;
}
