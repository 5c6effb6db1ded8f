import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { products, variationValues } from "~/server/platform/db/schema";
import { INVALID_FILE_TYPE } from "~/server/catalog/import/csv-reader.server";
import { importProducts } from "~/server/catalog/import/run-import.server";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-bad-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const names = async () => (await t.db.select({ name: products.name }).from(products).orderBy(products.name)).map((r) => r.name);
const bytes = (...parts: (string | number[])[]) => [Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))))];

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, variation_types cascade`);
});

describe("files that cannot be imported at all", () => {
  it("refuses a file that is not a CSV", async () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
    await expect(importProducts(t.db, bytes(png))).rejects.toThrow(INVALID_FILE_TYPE);
    await expect(importProducts(t.db, bytes("PK\u0003\u0004 an xlsx workbook"))).rejects.toThrow(INVALID_FILE_TYPE);
  });

  it("refuses an empty file and a file with only a header", async () => {
    await expect(importProducts(t.db, [])).rejects.toThrow("The file is empty");
    await expect(importProducts(t.db, ["\r\n\r\n"])).rejects.toThrow("The file is empty");
    await expect(importProducts(t.db, ["title,price\r\n"])).rejects.toThrow("The file has a header row but no product rows");
    expect(await names()).toEqual([]);
  });
});

describe("rows that cannot be imported", () => {
  it("reads a file with a UTF-8 byte order mark and CRLF line ends", async () => {
    const s = await importProducts(t.db, bytes([0xef, 0xbb, 0xbf], "title,price\r\nLinen Sheet,10\r\nCotton Sheet,12\r\n"));
    expect(s).toMatchObject({ created: 2, errorCount: 0 });
    expect(await names()).toEqual(["Cotton Sheet", "Linen Sheet"]);
  });

  it("finds the header below blank lines and numbers rows as a spreadsheet does", async () => {
    const s = await importProducts(t.db, ["\n,,\ntitle,price\nFirst,1\n,2\n"]);
    expect(s.errors).toEqual(["Row 5: Missing product title"]);
    expect(await names()).toEqual(["First"]);
  });

  it("imports the rows before an unterminated quote and names the row", async () => {
    const s = await importProducts(t.db, ['title,price\nGood One,1\n"Broken, 2\nNever Read,3\n']);
    expect(s.errors).toEqual(["Row 3: A quoted field is never closed; this row and the rest of the file were not read"]);
    expect(await names()).toEqual(["Good One"]);
  });

  it("refuses a row with 1,000 columns and imports the others", async () => {
    const wide = `Too Wide,1,${Array.from({ length: 998 }, (_, i) => `x${i}`).join(",")}`;
    const s = await importProducts(t.db, [`title,price\nBefore,1\n${wide}\nAfter,2\n`]);
    expect(s.errors).toEqual(["Row 3: Has 1,000 columns but the header has 2"]);
    expect(await names()).toEqual(["After", "Before"]);
  });

  it("refuses a row with invalid UTF-8 and imports the others", async () => {
    const s = await importProducts(t.db, bytes("title,price\nCaf", [0xe9], ",4\nTea Towel,5\n"));
    expect(s.errors).toEqual([expect.stringMatching(/^Row 2: Contains characters that are not valid UTF-8/)]);
    expect(await names()).toEqual(["Tea Towel"]);
  });

  it("gives clear per-row errors for bad prices, bad stock and a missing title", async () => {
    const csv = ["title,price,stock_quantity", "Comma Price,\"12,50\",1", "Word Price,abc,1", "Negative Stock,5,-3", ",5,1", "Fine,5,1", ""].join("\n");
    const s = await importProducts(t.db, [csv]);
    expect(s.errors).toEqual([
      "Row 2: Invalid price '12,50': use a dot for decimals (for example 12.50)",
      "Row 3: Invalid price 'abc': expected an amount such as 12.50",
      "Row 4: Stock cannot be negative ('-3')",
      "Row 5: Missing product title",
    ]);
    expect(s).toMatchObject({ created: 1, skipped: 4 });
    expect(await names()).toEqual(["Fine"]);
  });
});

describe("a header without a title column", () => {
  it("reports every row as missing its title, and says which columns a title may come from", async () => {
    const s = await importProducts(t.db, ["nom,prix\nDrap,10\nCouette,20\n"]);
    expect(s.errors).toEqual(["Row 2: Missing product title", "Row 3: Missing product title"]);
    expect(s.notes).toEqual(["Row 1: No title column found: the header needs one of title, Title, name, Name, product_title, Product Title, post_title"]);
    expect(await names()).toEqual([]);
  });
});

describe("batches", () => {
  it("never leaves a batch half-written: a row the database refuses is reported, every other row lands", async () => {
    await t.db.execute(sql`
      create or replace function refuse_exploding() returns trigger language plpgsql as $$
      begin
        if new.name = 'Explode' then raise exception 'refused by a test trigger'; end if;
        return new;
      end $$`);
    await t.db.execute(sql`create trigger refuse_exploding before insert on products for each row execute function refuse_exploding()`);
    try {
      const rows = ["title,price,sku", ...Array.from({ length: 7 }, (_, i) => (i === 4 ? "Explode,1,SKU-4" : `Item ${i},1,SKU-${i}`))];
      const progress: number[] = [];
      const s = await importProducts(t.db, [rows.join("\n")], { batchSize: 3, onProgress: (p) => void progress.push(p.processed) });
      expect(s.errors).toEqual(["Row 6: Could not be saved: refused by a test trigger"]);
      expect(s).toMatchObject({ created: 6, skipped: 1 });
      expect(await names()).toEqual(["Item 0", "Item 1", "Item 2", "Item 3", "Item 5", "Item 6"]);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.at(-1)).toBe(7);
    } finally {
      await t.db.execute(sql`drop trigger refuse_exploding on products`);
    }
  });

  it("rolls back a product whose variations fail, with nothing of it left behind", async () => {
    await t.db.execute(sql`
      create or replace function refuse_boom() returns trigger language plpgsql as $$
      begin
        if new.value = 'Boom' then raise exception 'no boom'; end if;
        return new;
      end $$`);
    await t.db.execute(sql`create trigger refuse_boom before insert on variation_values for each row execute function refuse_boom()`);
    try {
      const csv = [
        "Handle,Title,Option1 Name,Option1 Value,Variant Price,Variant SKU",
        "quiet,Quiet Lamp,Colour,Brass,40,Q-1",
        "loud,Loud Lamp,Colour,Boom,50,L-1",
      ].join("\n");
      const s = await importProducts(t.db, [csv]);
      expect(s.errors).toEqual(["Row 3: Could not be saved: no boom"]);
      expect(await names()).toEqual(["Quiet Lamp"]);
      expect(await t.db.select().from(variationValues).where(eq(variationValues.value, "Boom"))).toEqual([]);
    } finally {
      await t.db.execute(sql`drop trigger refuse_boom on variation_values`);
    }
  });
});

describe("a 100 MB file", () => {
  it("is streamed: imported with memory far below the file's size", { timeout: 180_000 }, async () => {
    const file = path.join(tmp, "big.csv");
    const out = fs.createWriteStream(file);
    const filler = "f".repeat(5000);
    out.write("title,price,sku,notes\n");
    let size = 0;
    let i = 0;
    while (size < 100 * 1024 * 1024) {
      const line = `Big Item ${i},9.99,BIG-${i},${filler}\n`;
      size += line.length;
      i++;
      if (!out.write(line)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");

    globalThis.gc?.();
    const before = process.memoryUsage.rss();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    const s = await importProducts(t.db, file).finally(() => clearInterval(timer));
    expect(s).toMatchObject({ created: i, errorCount: 0 });
    const growthMb = (peak - before) / (1024 * 1024);
    // Holding the file would take 100 MB as bytes and 200 MB as a JavaScript string.
    console.info(`100 MB import: ${i} rows, peak RSS growth ${growthMb.toFixed(1)} MB`);
    expect(growthMb).toBeLessThan(80);
  });
});

describe("a file that breaks off while batches are being written", () => {
  it("fails only once every batch in flight has landed, so nothing is written after the failure is reported", async () => {
    async function* breaksOff() {
      yield "title,price,sku\n";
      for (let i = 0; i < 2000; i++) yield `Cut Item ${i},9.99,CUT-${i}\n`;
      throw new Error("connection reset by the uploader");
    }
    await expect(importProducts(t.db, breaksOff(), { batchSize: 1000 })).rejects.toThrow("connection reset");
    const atFailure = (await names()).length;
    await new Promise((r) => setTimeout(r, 500));
    expect((await names()).length).toBe(atFailure);
    // Whole batches only: each landed in full or not at all.
    expect(atFailure % 1000).toBe(0);
  });
});
