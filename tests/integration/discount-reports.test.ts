import { beforeAll, describe, expect, it } from "vitest";
import { discountCodes, discountUses } from "~/server/platform/db/schema";
import { readDateRange } from "~/lib/date-range";
import { discountUsesPerDay, taxCollectedPerDay } from "~/server/insight/reports/discount-reports.server";
import { reportTable } from "~/server/insight/reports/reports.server";
import { makeOrder } from "../factories/account-orders";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

const at = (iso: string) => new Date(iso);
const may = { from: at("2026-05-01T00:00:00Z"), to: at("2026-05-04T00:00:00Z") };

describe("reports: discount uses per day and code", () => {
  beforeAll(async () => {
    const [welcome, ship] = await t.db
      .insert(discountCodes)
      .values([
        { code: "WELCOME10", kind: "percent", percentBasisPoints: 1000 },
        { code: "FREESHIP", kind: "free_shipping" },
      ])
      .returning();
    const use = async (code: { id: string }, state: "held" | "kept" | "released", amountCents: number, createdAt: string) => {
      const order = await makeOrder(t.db, { discountCents: amountCents, createdAt: at(createdAt) });
      await t.db.insert(discountUses).values({ codeId: code.id, orderId: order.id, state, amountCents, createdAt: at(createdAt) });
    };
    // May 1st (UTC): two kept and one held WELCOME10, one given back (left out); one FREESHIP.
    await use(welcome!, "kept", 500, "2026-05-01T00:00:00Z");
    await use(welcome!, "kept", 250, "2026-05-01T12:30:00Z");
    await use(welcome!, "held", 100, "2026-05-01T23:59:59Z");
    await use(welcome!, "released", 999, "2026-05-01T10:00:00Z");
    await use(ship!, "kept", 0, "2026-05-01T08:00:00Z");
    // May 2nd 00:30 UTC is still May 1st in New York: the day is the UTC one.
    await use(welcome!, "kept", 300, "2026-05-02T00:30:00Z");
    // Outside the range: the day before, and `to` itself (exclusive).
    await use(welcome!, "kept", 700, "2026-04-30T23:59:59Z");
    await use(welcome!, "kept", 800, "2026-05-04T00:00:00Z");
  });

  it("counts uses held or kept (not released) and the amount they gave, per UTC day and code, oldest first", async () => {
    const rows = await discountUsesPerDay(t.db, may);
    expect(rows.map(({ codeId: _id, ...r }) => r)).toEqual([
      { day: "2026-05-01", code: "FREESHIP", uses: 1, amountCents: 0 },
      { day: "2026-05-01", code: "WELCOME10", uses: 3, amountCents: 850 },
      { day: "2026-05-02", code: "WELCOME10", uses: 1, amountCents: 300 },
    ]);
  });

  it("is empty for a range with no uses", async () => {
    expect(await discountUsesPerDay(t.db, { from: at("2027-01-01T00:00:00Z"), to: at("2027-02-01T00:00:00Z") })).toEqual([]);
  });
});

describe("reports: tax collected per day", () => {
  // The first and last day included, as the Reports page's range picker gives them.
  const mayDays = readDateRange(new URLSearchParams("range=custom&from=2026-05-01&to=2026-05-03")).range;

  beforeAll(async () => {
    const paid = (taxCents: number, paidAt: string, extra: Parameters<typeof makeOrder>[1] = {}) =>
      makeOrder(t.db, { taxCents, paymentStatus: "paid", status: "processing", paidAt: at(paidAt), createdAt: at("2026-04-20T00:00:00Z"), ...extra });
    await paid(120, "2026-05-01T09:00:00Z");
    await paid(80, "2026-05-01T23:00:00Z");
    // Paid, then cancelled by the shop without a refund (yet): not a sale, so its tax is not counted.
    await paid(50, "2026-05-03T10:00:00Z", { status: "cancelled" });
    // Refunded: the tax went back with the money.
    await paid(1000, "2026-05-02T10:00:00Z", { paymentStatus: "refunded", status: "cancelled" });
    // Never paid.
    await makeOrder(t.db, { taxCents: 2000, paymentStatus: "unpaid", createdAt: at("2026-05-02T10:00:00Z") });
    await makeOrder(t.db, { taxCents: 3000, paymentStatus: "expired", createdAt: at("2026-05-02T10:00:00Z") });
    await makeOrder(t.db, { taxCents: 4000, paymentStatus: "failed", createdAt: at("2026-05-02T10:00:00Z") });
    // Paid outside the range.
    await paid(5000, "2026-05-04T00:00:00Z");
    await paid(6000, "2026-04-30T23:59:59Z");
  });

  it("sums the tax of the orders that count, by the UTC day of payment; cancelled, refunded and unpaid orders are left out", async () => {
    expect(await taxCollectedPerDay(t.db, mayDays)).toEqual([{ day: "2026-05-01", taxCents: 200, orders: 2 }]);
  });

  it("says what the Reports page's 'Discounts and tax' says, day by day", async () => {
    const report = await reportTable(t.db, "discounts-and-tax", mayDays);
    const taxColumn = report.columns.findIndex((c) => c.label === "Tax collected");
    const reported = report.rows.map((r) => [r[0], r[taxColumn]]).filter(([, tax]) => tax !== 0);
    const collected = (await taxCollectedPerDay(t.db, mayDays)).map((d) => [d.day, d.taxCents]);
    expect(collected).toEqual(reported);
    expect(report.totals![taxColumn]).toBe(200);
  });
});
