import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "../../app/server/platform/db/embedded.server";
import { runMigrations } from "../../app/server/platform/db/migrate.server";

/**
 * Where the bench runs: the server DATABASE_URL names (a fresh database is created there and
 * dropped afterwards), or a throwaway embedded PostgreSQL in a temporary folder.
 */
export type BenchServer = {
  /** Temporary folder for this run: the embedded database, the shop's DATA_DIR, CSV files. */
  tmpDir: string;
  kind: "embedded" | "external";
  version: string;
  /** A fresh, migrated, empty database on this server. */
  createDatabase: (suffix: string) => Promise<string>;
  close: (keep: boolean) => Promise<void>;
};

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export async function openBenchServer(log: (m: string) => void): Promise<BenchServer> {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  // The embedded server runs as the postgres account, which must reach its folder inside.
  fs.chmodSync(tmpDir, 0o755);
  let embedded: EmbeddedServer | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    log("Starting a throwaway embedded PostgreSQL…");
    embedded = await startEmbeddedPostgres({ dataDir: path.join(tmpDir, "pg"), database: "postgres" });
    adminUrl = embedded.adminUrl;
  }
  const { rows } = await adminQuery(adminUrl, "select current_setting('server_version') as v");
  const version = String(rows[0]?.v ?? "unknown");
  const runTag = `${Date.now().toString(36)}_${process.pid}`;
  const created: string[] = [];

  return {
    tmpDir,
    kind: embedded ? "embedded" : "external",
    version,
    async createDatabase(suffix) {
      const name = `shop_bench_${runTag}_${suffix}`;
      await adminQuery(adminUrl, `create database "${name}"`);
      created.push(name);
      const url = withDatabase(adminUrl, name);
      await runMigrations(url);
      return url;
    },
    async close(keep) {
      await embedded?.stop();
      if (keep) {
        log(`Kept: ${tmpDir}${embedded ? "" : ` and databases ${created.join(", ")}`}`);
        return;
      }
      if (!embedded) {
        for (const name of created) {
          await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => {});
        }
      }
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}
