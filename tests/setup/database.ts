import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, useDatabase, type Database } from "~/server/platform/db/client.server";

export type TestDatabase = { db: Database; url: string; name: string; drop: () => Promise<void> };

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh, migrated, empty database cloned from the run's template (never the demo data). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${inject("runId")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${inject("templateDatabase")}"`);
        break;
      } catch (err) {
        // Two files cloning at the same instant can collide on the template; try again.
        if (attempt >= 10 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const db = createDatabase(url, 20);
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.$client.end();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/**
 * For integration test files: a fresh database for this file, also installed as the process's
 * database so loaders and actions (which call getDb()) use it.
 */
export function useTestDatabase(): { readonly db: Database; readonly url: string } {
  const holder = {} as { db: Database; url: string };
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    holder.db = test.db;
    holder.url = test.url;
    useDatabase(test.db, test.url);
  });
  afterAll(async () => {
    await test?.drop();
  });
  return holder;
}
