import path from "node:path";
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { products } from "~/server/platform/db/schema";
import { importProducts } from "~/server/catalog/import/run-import.server";
import { loader as productLoader, meta as productMeta } from "~/routes/store/product";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

/**
 * WooCommerce's exporter writes a line break inside Description and Short description as the two
 * characters `\n`, and a backslash-n that really is in the text as `\\n`; its importer turns them
 * back. A WooCommerce row like that (tests/fixtures/import-woocommerce-line-breaks.csv, written
 * the way the exporter writes) must import with real line breaks, never a literal `\n`.
 */
const fixture = path.resolve(__dirname, "../fixtures/import-woocommerce-line-breaks.csv");
const BACKSLASH_N = "\\n";

async function product(sku: string) {
  const [row] = await t.db.select().from(products).where(eq(products.sku, sku));
  return row!;
}

/** The product page's meta tags, as React Router renders them. */
async function pageMeta(id: string) {
  const request = new Request(`http://localhost:3000/product/${id}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const data = (await productLoader({ request, params: { id }, context: {} } as any)) as any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tags = productMeta({ data, matches: [], params: { id }, location: {} } as any) as Record<string, string>[];
  return {
    description: tags.find((m) => m.name === "description")?.content,
    ogDescription: tags.find((m) => m.property === "og:description")?.content,
  };
}

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, variation_types cascade`);
});

describe("line breaks in a WooCommerce export", () => {
  it("become real line breaks in the description, the short description and HTML alike", async () => {
    const s = await importProducts(t.db, fixture);
    expect(s).toMatchObject({ format: "woocommerce", created: 4, errorCount: 0 });

    expect((await product("LL-LINEN-SHEET")).description).toBe(
      "Why linen? \nTemperature-regulating, breathable and stronger when wet.\n\nCare: machine wash cold, tumble dry low.",
    );
    // HTML: a break between two tags is layout only; the blocks give one line each, as without it.
    expect((await product("LL-WAFFLE-TOWEL")).description).toBe("Quick-drying cotton waffle.\n• Lightweight\n• Gets softer with every wash");
    // No Description: the Short description, also unescaped.
    expect((await product("LL-THROW-PILLOW")).description).toBe("Feather filled.\nRemovable cover.");
    for (const sku of ["LL-LINEN-SHEET", "LL-WAFFLE-TOWEL", "LL-THROW-PILLOW"]) {
      expect((await product(sku)).description).not.toContain(BACKSLASH_N);
    }
    // The exporter's `\\n` is a backslash-n that was in the text: it stays one.
    expect((await product("LL-DESK-LAMP")).description).toBe("Fits a C:\\new bulb holder.\nSwitch on the cord.");
  });

  it("reach the product page's meta description and og:description as spaces, never a literal \\n", async () => {
    await importProducts(t.db, fixture);
    const sheet = await product("LL-LINEN-SHEET");
    const meta = await pageMeta(sheet.id);
    const expected = "Why linen? Temperature-regulating, breathable and stronger when wet. Care: machine wash cold, tumble dry low.";
    expect(meta).toEqual({ description: expected, ogDescription: expected });

    for (const sku of ["LL-WAFFLE-TOWEL", "LL-THROW-PILLOW"]) {
      const m = await pageMeta((await product(sku)).id);
      expect(m.description).toBeTruthy();
      expect(m.ogDescription).toBe(m.description);
      expect(m.description).not.toContain(BACKSLASH_N);
      expect(m.description).not.toMatch(/\n/);
    }
  });

  it("leaves the generic CSV format's descriptions as they are", async () => {
    const csv = `title,description,price,sku\nPlain Sheet,"Line one\\nstill line one",10,LL-GENERIC-N\n`;
    const s = await importProducts(t.db, Readable.from([Buffer.from(csv)]));
    expect(s).toMatchObject({ format: "generic", created: 1 });
    expect((await product("LL-GENERIC-N")).description).toBe("Line one\\nstill line one");
  });
});
