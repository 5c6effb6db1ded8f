import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CHANGE_LOG_HOURS, pruneStorefrontChanges } from "~/server/platform/http/page-cache.server";
import { storefrontChanges } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

describe("the storefront change log", () => {
  it("gets a row for every catalogue write, and pruning keeps only the rows a cached page may still need", async () => {
    await t.db.delete(storefrontChanges);
    await makeProduct(t.db, { name: "Old Change" });
    const written = await t.db.select().from(storefrontChanges);
    expect(written.length).toBeGreaterThan(0);
    // Those rows age past the window; a later write is still recent.
    await t.db.execute(sql`update storefront_changes set created_at = now() - make_interval(hours => ${CHANGE_LOG_HOURS}, mins => 1)`);
    await makeProduct(t.db, { name: "New Change" });
    const recent = (await t.db.select().from(storefrontChanges)).length - written.length;
    expect(recent).toBeGreaterThan(0);

    await pruneStorefrontChanges(t.db);
    const left = await t.db.select().from(storefrontChanges);
    expect(left).toHaveLength(recent);
    expect(left.every((row) => Date.now() - row.createdAt.getTime() < 60_000)).toBe(true);
  });
});
