import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedServer } from "../../app/server/platform/db/embedded.server";
import { runMigrations } from "../../app/server/platform/db/migrate.server";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
    runId: string;
  }
}

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * One PostgreSQL for the whole run: the server DATABASE_URL names, or a throwaway embedded one.
 * Migrations are applied once to a template database; each test file clones it (fast, isolated).
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(3).toString("hex")}`;
  let embedded: EmbeddedServer | undefined;
  let tmpDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-pg-"));
    fs.chmodSync(tmpDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir: tmpDir, database: "postgres" });
    adminUrl = embedded.adminUrl;
  }
  const template = `shop_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  await runMigrations(withDatabase(adminUrl, template));
  await admin.end();

  project.provide("pgAdminUrl", adminUrl);
  project.provide("templateDatabase", template);
  project.provide("runId", runId);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    // A worker's last clone made ahead, or a drop it did not wait for, may still be running
    // (tests/setup/database.ts): let it finish, so what it makes is found and dropped below.
    for (let waited = 0; waited < 30_000; waited += 100) {
      const busy = await client.query("select 1 from pg_stat_activity where state = 'active' and query ~* $1 limit 1", [
        `^\\s*(create|drop) database "t_${runId}_`,
      ]);
      if (busy.rowCount === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where datname like $1 or datname = $2",
      [`t_${runId}_%`, template],
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    await client.end();
    await embedded?.stop();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  };
}
