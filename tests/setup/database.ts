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

/** Clones the run's template under a new name; answers the name. */
async function cloneTemplate(): Promise<string> {
  const name = `t_${inject("runId")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${inject("templateDatabase")}"`);
        return name;
      } catch (err) {
        // Two files cloning at the same instant can collide on the template; try again.
        if (attempt >= 10 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
}

// One clone made ahead per worker, kept on globalThis because the worker's modules are evaluated
// afresh for each file (tests/setup/env.ts). A file takes the clone made while the file before it
// ran, and starts the next one: PostgreSQL copies the template while the tests run, not between
// files. What is left over at the end is dropped with the run's other databases (global-setup.ts).
const AHEAD = "__testDatabaseAhead";
const ahead = globalThis as { [AHEAD]?: Promise<string> };

/** A fresh, migrated, empty database cloned from the run's template (never the demo data). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("pgAdminUrl");
  const ready = ahead[AHEAD];
  ahead[AHEAD] = cloneTemplate();
  // Failing ahead is not failing: the file that takes it clones again, and says why if that fails too.
  ahead[AHEAD].catch(() => {});
  const name = (await ready?.catch(() => null)) ?? (await cloneTemplate());
  const url = withDatabase(adminUrl, name);
  const db = createDatabase(url, 20);
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.$client.end();
      // Not waited for: the next file need not wait for PostgreSQL to delete this one's files. A
      // drop that fails or is cut short by the run's end is done by the run's teardown.
      void (async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        try {
          await c.query(`drop database if exists "${name}" with (force)`);
        } finally {
          await c.end();
        }
      })().catch(() => {});
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
