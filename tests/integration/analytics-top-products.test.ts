import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { DayRange } from "~/lib/date-range";
import { salesByProduct } from "~/server/insight/analytics/sales.server";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

const range = (start: string, end: string): DayRange => ({
  start,
  end,
  days: Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1,
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("the top products, proven from each month's best instead of summing every product", () => {
  beforeAll(async () => {
    // 600 products over three months: flat sales (many close figures, so the month bound and the
    // shortlist are tested where they are weakest) plus a few steady sellers that are never a
    // month's best but lead over the quarter. Daily rows first, the monthly roll-up from them, as
    // the triggers keep it.
    const next = random(17);
    const rows: string[] = [];
    for (let p = 0; p < 600; p++) {
      const id = `00000000-0000-4000-8000-${String(p + 1).padStart(12, "0")}`;
      const steady = p < 5;
      for (let d = 0; d < 90; d++) {
        if (!steady && next() > 0.12) continue;
        const day = new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
        const units = steady ? 1 : 1 + Math.floor(next() * 4);
        const price = steady ? 2_500 : 1_000 + Math.floor(next() * 9_000);
        rows.push(`('${day}', '${id}', 'Product ${p}', 'Cat ${p % 7}', ${units}, ${units * price})`);
      }
    }
    await t.db.execute(
      sql.raw(`insert into sales_daily_products (day, product_id, name, category, units, revenue_cents) values ${rows.join(",")}`),
    );
    await t.db.execute(sql`
      insert into sales_monthly_products (month, product_id, name, category, units, revenue_cents)
      select date_trunc('month', day)::date, product_id, max(name), max(category), sum(units), sum(revenue_cents)
      from sales_daily_products where day between '2025-01-01' and '2025-03-31'
      group by 1, 2`);
  });

  it("gives what summing every product gives, for whole and partial months, by revenue and by units", async () => {
    for (const r of [range("2025-01-01", "2025-03-31"), range("2025-01-09", "2025-03-17"), range("2025-02-01", "2025-02-28"), range("2025-01-20", "2025-02-10")]) {
      for (const by of ["revenue", "units"] as const) {
        const everything = await salesByProduct(t.db, r, { by });
        for (const limit of [1, 3, 10, 51]) {
          const top = await salesByProduct(t.db, r, { by, limit });
          expect(top, `${r.start}..${r.end} by ${by}, top ${limit}`).toEqual(everything.slice(0, limit));
        }
      }
    }
  });
});
