// Nothing forgotten (docs/rules/personal-data.md): every column of the live schema whose name
// suggests personal data is in the registry (what export and erasure do with it) or in the
// 'not personal' list with a reason. A new column like `customer_phone` fails here until it is
// registered, and the second test shows exactly that on a column made for the test.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOT_PERSONAL, PERSONAL_DATA, PERSONAL_NAME_PATTERN, registryKey } from "~/server/people/privacy/registry";
import type { Database } from "~/server/platform/db/client.server";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

type Executor = Pick<Database, "execute">;

async function liveColumns(db: Executor) {
  const result = await db.execute<{ table_name: string; column_name: string }>(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' order by table_name, column_name`);
  return result.rows.map((r) => registryKey(r.table_name, r.column_name));
}

/** The columns that look personal and are neither registered nor explained away. */
function unregistered(columns: string[]) {
  const registered = new Set(PERSONAL_DATA.map((c) => registryKey(c.table, c.column)));
  return columns.filter((key) => {
    const column = key.split(".")[1];
    return PERSONAL_NAME_PATTERN.test(column) && !registered.has(key) && !(key in NOT_PERSONAL);
  });
}

describe("the personal-data registry", () => {
  it("names every column of the live schema whose name suggests personal data", async () => {
    expect(unregistered(await liveColumns(t.db))).toEqual([]);
  });

  it("registers only columns that exist, once each, with an export rule and an erasure rule", async () => {
    const live = new Set(await liveColumns(t.db));
    const keys = PERSONAL_DATA.map((c) => registryKey(c.table, c.column));
    expect(keys.filter((k) => !live.has(k))).toEqual([]);
    expect(keys.length).toBe(new Set(keys).size);
    expect(Object.keys(NOT_PERSONAL).filter((k) => !live.has(k))).toEqual([]);
    for (const c of PERSONAL_DATA) {
      expect(c.holds.length, registryKey(c.table, c.column)).toBeGreaterThan(3);
      if ("no" in c.export) expect(c.export.no.length).toBeGreaterThan(3);
    }
  });

  it("fails on a new column that sounds personal until it is registered", async () => {
    const rollback = new Error("rollback");
    let found: string[] = [];
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`alter table orders add column customer_phone text`);
        await tx.execute(sql`create table privacy_probe (id serial primary key, billing_line1 text, sku text)`);
        found = unregistered(await liveColumns(tx));
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
    expect(found).toEqual(["orders.customer_phone", "privacy_probe.billing_line1"]);
    // Rolled back: the real schema is clean again.
    expect(unregistered(await liveColumns(t.db))).toEqual([]);
  });
});
