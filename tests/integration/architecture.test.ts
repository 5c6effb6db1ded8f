// One writer per table (docs/architecture.md): every table of the schema has an owning area, and
// no other area's code writes it. The detector itself is checked on each form of write it reads.
import { describe, expect, it } from "vitest";
import { areaCircles, areaNames, schemaTables, tableWrites, writesInSource } from "../../scripts/architecture/analyse";
import { TABLE_OWNERS, WRITERS_OUTSIDE_AREAS } from "../../scripts/architecture/table-owners";

describe("one writer per table", () => {
  it("names an owning area for every table of the schema, and only real tables and areas", async () => {
    const tables = [...new Set((await schemaTables()).values())].sort();
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(tables);
    const areas = areaNames();
    expect(areas).toEqual(["catalog", "commerce", "content", "insight", "people", "platform"]);
    for (const owner of Object.values(TABLE_OWNERS)) expect(areas).toContain(owner);
  });

  it("finds no write to a table from an area that does not own it", async () => {
    const strays = (await tableWrites())
      .filter((w) => w.area !== TABLE_OWNERS[w.table] && !WRITERS_OUTSIDE_AREAS.includes(w.area))
      .map((w) => `${w.file}:${w.line} ${w.how} ${w.table} (owner: ${TABLE_OWNERS[w.table]})`);
    expect(strays).toEqual([]);
  });

  it("sees every form of write: Drizzle's insert, update and delete, and SQL text by name or by table", async () => {
    const tables = await schemaTables();
    const src = [
      "await tx.insert(orders).values(row);",
      "await db.update( products ).set({ stockQuantity: 1 });",
      "await db.delete(cartLines).where(x);",
      "await db.execute(sql`update ${productVariations} set stock_quantity = 0`);",
      "await db.execute(sql`INSERT INTO mail_outbox (id) values (1)`);",
      "await db.execute(sql`delete from \"reviews\" where id = ${id}`);",
      "copy categories from stdin",
      // Reads are not writes.
      "await db.select().from(users); await db.execute(sql`select * from orders`);",
    ].join("\n");
    expect(writesInSource(src, tables).map((w) => `${w.line} ${w.how} ${w.table}`)).toEqual([
      "1 insert orders",
      "2 update products",
      "3 delete cart_lines",
      "4 update product_variations",
      "5 insert into mail_outbox",
      "6 delete from reviews",
      "7 copy categories",
    ]);
  });

  it("finds a circle between areas when one is there", () => {
    expect(areaCircles(["catalog → platform", "commerce → catalog"])).toEqual([]);
    expect(areaCircles(["catalog → platform", "commerce → catalog", "platform → commerce"])).toEqual([
      ["catalog", "commerce", "platform"],
    ]);
  });
});
