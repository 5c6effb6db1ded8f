import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_CODE_PATTERN, DISCOUNT_MESSAGES_ADMIN as V } from "~/lib/discount-input";
import { discountValueLabel, usesLabel } from "~/lib/discounts-view";
import { action as listAction, loader as listLoader } from "~/routes/admin/discounts/index";
import { action as editorAction, loader as editorLoader } from "~/routes/admin/discounts/editor";
import { loader as productSearchLoader } from "~/routes/admin/discounts/product-search";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { discountCodes, discountUses } from "~/server/platform/db/schema";
import { DISCOUNT_ADMIN_MESSAGES as A, DISCOUNTS_PAGE_SIZE } from "~/server/commerce/discounts/admin.server";
import { releaseDiscountUse } from "~/server/commerce/discounts/uses.server";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { CODE_PATTERN } from "~/server/commerce/pricing/discount-codes.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { makeOrder } from "../factories/account-orders";
import { cartLines, shippingForm } from "../factories/orders";
import { makeCategory, makeProduct, makeProducts } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

const suffix = () => randomBytes(3).toString("hex").toUpperCase();

/** A valid editor form, as the page sends it. */
function form(overrides: Record<string, unknown> = {}) {
  return {
    code: `TEST-${suffix()}`,
    kind: "percent",
    value: "10",
    minSubtotal: "",
    startsAt: "",
    endsAt: "",
    usageLimit: "",
    oncePerEmail: false,
    active: true,
    categoryIds: [],
    productIds: [],
    ...overrides,
  };
}

const create = (discount: unknown, as: { id: string } | null = admin) =>
  post(t.db, editorAction, as, "/admin/discounts/new", { intent: "save", discount });
const update = (id: string, discount: unknown, as: { id: string } | null = admin) =>
  post(t.db, editorAction, as, `/admin/discounts/${id}`, { intent: "save", discount }, { id });
const rowAction = (body: Record<string, unknown>, as: { id: string } | null = admin) => post(t.db, listAction, as, "/admin/discounts", body);
const list = (search = "") => get(t.db, listLoader, admin, `/admin/discounts${search}`);
const countCodes = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(discountCodes))[0]!.n;
const byId = async (id: string) => (await t.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0];

async function created(discount: Record<string, unknown>) {
  const res = await create(discount);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (await byId(res.body.id as string))!;
}

/** A use of the code made by the real checkout: a pending order that holds it. */
async function useThroughCheckout(code: string, email = `shopper-${suffix()}@example.test`) {
  const product = await makeProduct(t.db, { priceCents: 4000, stockQuantity: 50 });
  const result = await createCheckout(
    t.db,
    { lines: cartLines([product, 1]), form: shippingForm({ email }), idempotencyKey: null, discountCode: code },
    { userId: null, providers: onlyProvider(getPaymentProvider(t.db, "test")), baseUrl: "http://localhost:3000" },
  );
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return result as Extract<typeof result, { ok: true }>;
}

describe("discount codes: the code pattern", () => {
  it("the editor checks codes with the very pattern the checkout matches them with", () => {
    expect(DISCOUNT_CODE_PATTERN.source).toBe(CODE_PATTERN.source);
    expect(DISCOUNT_CODE_PATTERN.flags).toBe(CODE_PATTERN.flags);
  });
});

describe("discount codes: every bad input gets its message beside its field and saves nothing", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["a code of 500 characters", { code: "A".repeat(500) }, "code", V.codeTooLong],
    ["a code with a space", { code: "WELCOME 10" }, "code", V.codeCharacters],
    ["a code with an emoji", { code: "WELCOME🎉" }, "code", V.codeCharacters],
    ["a code with an accent", { code: "CAFÉ" }, "code", V.codeCharacters],
    ["an empty code", { code: "   " }, "code", V.codeRequired],
    ["an unknown kind", { kind: "bogo" }, "kind", V.kind],
    ["a percentage over 100", { value: "100.01" }, "value", V.percentMax],
    ["a percentage of 150", { value: "150" }, "value", V.percentMax],
    ["a percentage of 0", { value: "0" }, "value", V.percentPositive],
    ["a negative percentage", { value: "-5" }, "value", V.percentPositive],
    ["a percentage with 3 decimals", { value: "12.345" }, "value", V.percentDecimals],
    ["a percentage that is not a number", { value: "ten" }, "value", V.percentNumber],
    ["no percentage", { value: "" }, "value", V.percentRequired],
    ["a fixed amount of 0", { kind: "fixed", value: "0" }, "value", V.amountPositive],
    ["a fixed amount of 0.00", { kind: "fixed", value: "0.00" }, "value", V.amountPositive],
    ["a negative fixed amount", { kind: "fixed", value: "-5" }, "value", V.amountPositive],
    ["a fixed amount that is not a number", { kind: "fixed", value: "five" }, "value", V.amountNumber],
    ["a fixed amount with 3 decimals", { kind: "fixed", value: "5.001" }, "value", V.amountDecimals],
    ["no fixed amount", { kind: "fixed", value: "" }, "value", V.amountRequired],
    ["a huge fixed amount", { kind: "fixed", value: "10000000" }, "value", V.amountMax],
    ["a minimum that is not a number", { minSubtotal: "fifty" }, "minSubtotal", V.minimumNumber],
    ["a negative minimum", { minSubtotal: "-1" }, "minSubtotal", V.minimumNegative],
    ["a start that is not a date", { startsAt: "tomorrow" }, "startsAt", V.startsAt],
    ["a date that does not exist", { startsAt: "2026-02-30T10:00" }, "startsAt", V.startsAt],
    ["an end that is not a date", { endsAt: "2026-13-01T10:00" }, "endsAt", V.endsAt],
    ["an end before the start", { startsAt: "2026-06-01T10:00", endsAt: "2026-05-01T10:00" }, "endsAt", V.endBeforeStart],
    ["an end equal to the start", { startsAt: "2026-06-01T10:00", endsAt: "2026-06-01T10:00" }, "endsAt", V.endBeforeStart],
    ["a limit of 0", { usageLimit: "0" }, "usageLimit", V.limitMin],
    ["a negative limit", { usageLimit: "-3" }, "usageLimit", V.limitMin],
    ["a limit that is not whole", { usageLimit: "2.5" }, "usageLimit", V.limitWhole],
    ["a limit that is not a number", { usageLimit: "lots" }, "usageLimit", V.limitWhole],
    ["a huge limit", { usageLimit: "99999999999" }, "usageLimit", V.limitMax],
    ["a category id that is not an id", { categoryIds: ["bedding"] }, "categoryIds", V.categories],
    ["a product id that is not an id", { productIds: [42] }, "productIds", V.products],
  ];

  it.each(cases)("%s", async (_name, overrides, field, message) => {
    const before = await countCodes();
    const res = await create(form(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, title: "Failed to create discount code", message });
    expect(res.body.errors[field]).toBe(message);
    expect(await countCodes()).toBe(before);
  });

  it("reports every bad field at once", async () => {
    const res = await create(form({ code: "BAD CODE", value: "101", usageLimit: "0", startsAt: "2026-06-01T10:00", endsAt: "2026-05-01T00:00" }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ code: V.codeCharacters, value: V.percentMax, usageLimit: V.limitMin, endsAt: V.endBeforeStart });
  });

  it("refuses categories and products that do not exist, by field", async () => {
    const before = await countCodes();
    const ghost = "00000000-0000-4000-8000-000000000001";
    const cat = await create(form({ categoryIds: [ghost] }));
    expect(cat.status).toBe(400);
    expect(cat.body.errors).toEqual({ categoryIds: A.unknownCategory });
    const prod = await create(form({ productIds: [ghost] }));
    expect(prod.body.errors).toEqual({ productIds: A.unknownProduct });
    expect(await countCodes()).toBe(before);
  });

  it("the same checks hold on an edit, and a refused edit changes nothing", async () => {
    const code = await created(form({ value: "15" }));
    const res = await update(code.id, form({ code: code.code, value: "250", usageLimit: "0" }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: "Failed to update discount code", errors: { value: V.percentMax, usageLimit: V.limitMin } });
    expect(await byId(code.id)).toEqual(code);
  });
});

describe("discount codes: what is saved", () => {
  it("stores the code as typed and each field in its unit: basis points, cents, UTC times, ids", async () => {
    const bedding = await makeCategory(t.db);
    const throwPillow = await makeProduct(t.db);
    const typed = `Welcome${suffix()}`;
    const res = await create(
      form({
        code: `  ${typed} `,
        value: "12.5%",
        minSubtotal: "$1,250.50",
        startsAt: "2026-05-01T09:00",
        endsAt: "2026-05-31T23:59:30",
        usageLimit: "100",
        oncePerEmail: true,
        categoryIds: [bedding.id],
        productIds: [throwPillow.id, throwPillow.id],
      }),
    );
    expect(res.body).toMatchObject({ ok: true, message: `Discount code ${typed} created successfully` });
    const row = (await byId(res.body.id))!;
    expect(row).toMatchObject({
      code: typed,
      kind: "percent",
      percentBasisPoints: 1250,
      amountCents: null,
      minSubtotalCents: 125050,
      usageLimit: 100,
      usesCount: 0,
      oncePerEmail: true,
      active: true,
      categoryIds: [bedding.id],
      productIds: [throwPillow.id],
    });
    expect(row.startsAt!.toISOString()).toBe("2026-05-01T09:00:00.000Z");
    expect(row.endsAt!.toISOString()).toBe("2026-05-31T23:59:30.000Z");

    const fixed = await created(form({ kind: "fixed", value: "5.5", percentBasisPoints: 999 }));
    expect(fixed).toMatchObject({ kind: "fixed", amountCents: 550, percentBasisPoints: null });
    const exact = await created(form({ value: "100" }));
    expect(exact.percentBasisPoints).toBe(10_000);
    const smallest = await created(form({ value: "0.01" }));
    expect(smallest.percentBasisPoints).toBe(1);

    // Free shipping has no value and is never limited to some lines.
    const ship = await created(form({ kind: "free_shipping", value: "whatever", categoryIds: [bedding.id] }));
    expect(ship).toMatchObject({ kind: "free_shipping", percentBasisPoints: null, amountCents: null, categoryIds: [], productIds: [] });
  });

  it("refuses a code that differs from another only by case, on create and on rename, with a clear message", async () => {
    const s = suffix();
    const first = await created(form({ code: `WELCOME${s}` }));
    const before = await countCodes();

    const sameCase = await create(form({ code: `WELCOME${s}` }));
    expect(sameCase.status).toBe(409);
    expect(sameCase.body.errors).toEqual({ code: A.clash(`WELCOME${s}`, `WELCOME${s}`) });

    const otherCase = await create(form({ code: `Welcome${s}` }));
    expect(otherCase.status).toBe(409);
    expect(otherCase.body.message).toBe(`WELCOME${s} already exists, and codes ignore upper and lower case: Welcome${s} would be the same code`);
    expect(otherCase.body.errors).toEqual({ code: otherCase.body.message });
    expect(await countCodes()).toBe(before);

    const other = await created(form());
    const rename = await update(other.id, form({ code: `welcome${s}` }));
    expect(rename.status).toBe(409);
    expect(rename.body.errors.code).toContain(`WELCOME${s} already exists`);
    expect((await byId(other.id))!.code).toBe(other.code);

    // A code may change its own case while it has no uses.
    const recased = await update(first.id, form({ code: `Welcome${s}` }));
    expect(recased.status).toBe(200);
    expect((await byId(first.id))!.code).toBe(`Welcome${s}`);
  });

  it("an edit of an unknown code is not found", async () => {
    const res = await update("00000000-0000-4000-8000-000000000009", form());
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(A.notFound);
    const malformed = await update("not-an-id", form());
    expect(malformed.status).toBe(404);
  });
});

describe("discount codes: the list", () => {
  it("shows each code's status as the checkout sees it: active, scheduled, expired, used up, inactive", async () => {
    const tag = `ST${suffix()}`;
    const hour = 3_600_000;
    const now = Date.now();
    const rows = await t.db
      .insert(discountCodes)
      .values([
        { code: `${tag}-ACTIVE`, kind: "percent", percentBasisPoints: 1000, usageLimit: 10, usesCount: 3 },
        { code: `${tag}-SCHEDULED`, kind: "fixed", amountCents: 500, startsAt: new Date(now + 24 * hour) },
        { code: `${tag}-EXPIRED`, kind: "free_shipping", startsAt: new Date(now - 48 * hour), endsAt: new Date(now - hour) },
        { code: `${tag}-USEDUP`, kind: "percent", percentBasisPoints: 500, usageLimit: 2, usesCount: 2 },
        { code: `${tag}-INACTIVE`, kind: "percent", percentBasisPoints: 500, active: false, endsAt: new Date(now - hour) },
        { code: `${tag}-WINDOW`, kind: "percent", percentBasisPoints: 500, startsAt: new Date(now - hour), endsAt: new Date(now + hour) },
      ])
      .returning();
    const res = await list(`?q=${tag}`);
    expect(res.status).toBe(200);
    const shown = Object.fromEntries(
      (res.body.list.rows as { code: string; status: string; usesCount: number; usageLimit: number | null }[]).map((r) => [r.code.slice(tag.length + 1), r]),
    );
    expect(Object.fromEntries(Object.entries(shown).map(([k, r]) => [k, r.status]))).toEqual({
      ACTIVE: "active",
      SCHEDULED: "scheduled",
      EXPIRED: "expired",
      USEDUP: "used_up",
      INACTIVE: "inactive",
      WINDOW: "active",
    });
    expect(res.body.list.total).toBe(rows.length);
    expect(usesLabel(shown.ACTIVE!)).toBe("3 / 10");
    expect(usesLabel(shown.SCHEDULED!)).toBe("0 / ∞");
    expect(discountValueLabel(res.body.list.rows.find((r: { code: string }) => r.code === `${tag}-ACTIVE`))).toBe("10%");
    expect(discountValueLabel(res.body.list.rows.find((r: { code: string }) => r.code === `${tag}-SCHEDULED`))).toBe("$5.00 off");
    expect(discountValueLabel(res.body.list.rows.find((r: { code: string }) => r.code === `${tag}-EXPIRED`))).toBe("Free shipping");
    expect(shown.SCHEDULED).toMatchObject({ startsAt: rows[1]!.startsAt!.toISOString(), endsAt: null });
  });

  it("10,000 codes: the first page and a search come back paged, newest first, and the search finds its code", async () => {
    const tag = `BULK${suffix()}`;
    // One insert, as a shop that generated codes for a campaign would have them.
    await t.db.execute(sql`
      insert into discount_codes (code, kind, percent_basis_points, created_at)
      select ${tag} || '-' || lpad(i::text, 5, '0'), 'percent', 1000, now() - i * interval '1 second'
      from generate_series(1, 10000) as i`);
    expect(await countCodes()).toBeGreaterThanOrEqual(10_000);

    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.list.rows).toHaveLength(DISCOUNTS_PAGE_SIZE);
    expect(first.body.list.total).toBeGreaterThanOrEqual(10_000);
    const createdAt = (first.body.list.rows as { createdAt: string }[]).map((r) => r.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);

    const campaign = await list(`?q=${tag}`);
    expect(campaign.body.list).toMatchObject({ total: 10_000, pages: 400, pageSize: DISCOUNTS_PAGE_SIZE });
    expect(campaign.body.list.rows[0].code).toBe(`${tag}-00001`);
    const last = await list(`?q=${tag}&page=400`);
    expect(last.body.list.rows).toHaveLength(DISCOUNTS_PAGE_SIZE);
    expect(last.body.list.rows.at(-1).code).toBe(`${tag}-10000`);
    const beyond = await list(`?q=${tag}&page=401`);
    expect(beyond.status).toBe(302);
    expect(beyond.location).toBe(`/admin/discounts?q=${tag}&page=400`);

    // Any case, any part of the code; _ and % are plain characters.
    const one = await list(`?q=${tag.toLowerCase()}-04321`);
    expect(one.body.list.rows.map((r: { code: string }) => r.code)).toEqual([`${tag}-04321`]);
    expect(one.body.list.total).toBe(1);
    expect((await list(`?q=${tag}_04321`)).body.list.total).toBe(0);
    expect((await list(`?q=${tag}%25`)).body.list.total).toBe(0);
  });
});

describe("discount codes: a used code is deactivated, never deleted nor renamed", () => {
  it("deletes a code nobody used, after which it is gone", async () => {
    const code = await created(form());
    const res = await rowAction({ intent: "delete", id: code.id });
    expect(res.body).toEqual({ ok: true, message: `Discount code ${code.code} deleted successfully` });
    expect(await byId(code.id)).toBeUndefined();
    const again = await rowAction({ intent: "delete", id: code.id });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(A.notFound);
  });

  it("a code used through the checkout: delete refused, deactivate and reactivate work, its text cannot change, other fields can", async () => {
    const code = await created(form({ value: "10", usageLimit: "5" }));
    const checkout = await useThroughCheckout(code.code.toLowerCase());
    const [use] = await t.db.select().from(discountUses).where(eq(discountUses.codeId, code.id));
    expect(use).toMatchObject({ orderId: checkout.orderId, state: "held", amountCents: 400 });
    expect((await byId(code.id))!.usesCount).toBe(1);

    const del = await rowAction({ intent: "delete", id: code.id });
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ ok: false, title: "Failed to delete discount code", message: A.deleteUsed(code.code) });
    expect(del.body.message).toContain("Deactivate it instead");
    expect(await byId(code.id)).toBeDefined();

    const off = await rowAction({ intent: "set-active", id: code.id, active: false });
    expect(off.body).toEqual({ ok: true, message: `Discount code ${code.code} deactivated successfully` });
    let shown = (await list(`?q=${code.code}`)).body.list.rows[0];
    expect(shown).toMatchObject({ code: code.code, status: "inactive", usesCount: 1, usageLimit: 5 });
    expect(usesLabel(shown)).toBe("1 / 5");
    const on = await rowAction({ intent: "set-active", id: code.id, active: "true" });
    expect(on.body.message).toBe(`Discount code ${code.code} activated successfully`);
    shown = (await list(`?q=${code.code}`)).body.list.rows[0];
    expect(shown.status).toBe("active");

    const rename = await update(code.id, form({ code: `${code.code}X`, value: "10", usageLimit: "5" }));
    expect(rename.status).toBe(409);
    expect(rename.body.errors).toEqual({ code: A.renameUsed(code.code) });
    expect((await byId(code.id))!.code).toBe(code.code);

    const below = await update(code.id, form({ code: code.code, value: "10", usageLimit: "0" }));
    expect(below.body.errors).toEqual({ usageLimit: V.limitMin });
    const edited = await update(code.id, form({ code: code.code, value: "20", usageLimit: "1" }));
    expect(edited.body).toMatchObject({ ok: true, message: `Discount code ${code.code} updated successfully` });
    expect(await byId(code.id)).toMatchObject({ code: code.code, percentBasisPoints: 2000, usageLimit: 1, usesCount: 1 });
    expect((await list(`?q=${code.code}`)).body.list.rows[0].status).toBe("used_up");

    // The editor says so, so the code field can be locked.
    const loaded = await get(t.db, editorLoader, admin, `/admin/discounts/${code.id}`, { id: code.id });
    expect(loaded.body.discount).toMatchObject({ code: code.code, used: true, usesCount: 1 });
  });

  it("refuses a limit below the uses already counted", async () => {
    const code = await created(form({ usageLimit: "" }));
    for (let i = 0; i < 3; i++) await useThroughCheckout(code.code);
    const res = await update(code.id, form({ code: code.code, usageLimit: "2" }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ usageLimit: A.limitBelowUses(3) });
    expect(res.body.message).toBe("Usage limit can't be below the 3 uses already counted");
    expect((await byId(code.id))!.usageLimit).toBeNull();
    expect((await update(code.id, form({ code: code.code, usageLimit: "3" }))).status).toBe(200);
  });

  it("a use given back still counts as used: uses_count 0, but its row is the record", async () => {
    const code = await created(form());
    const checkout = await useThroughCheckout(code.code);
    await t.db.transaction((tx) => releaseDiscountUse(tx, checkout.orderId));
    expect((await byId(code.id))!.usesCount).toBe(0);
    const del = await rowAction({ intent: "delete", id: code.id });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe(A.deleteUsed(code.code));
  });

  it("a use recorded directly against an order (no checkout) blocks the delete too", async () => {
    const code = await created(form());
    const order = await makeOrder(t.db, { discountCode: code.code, discountCents: 250 });
    await t.db.insert(discountUses).values({ codeId: code.id, orderId: order.id, state: "kept", amountCents: 250 });
    expect((await rowAction({ intent: "delete", id: code.id })).status).toBe(409);
    expect(await byId(code.id)).toBeDefined();
  });

  it("answers an unknown action or a malformed id without a 500", async () => {
    expect((await rowAction({ intent: "explode" })).status).toBe(400);
    expect((await rowAction({ intent: "delete", id: "1; drop table" })).status).toBe(404);
    expect((await post(t.db, editorAction, admin, "/admin/discounts/new", { intent: "nope" })).status).toBe(400);
  });
});

describe("discount codes: the editor's data", () => {
  it("loads a new form with the categories, an existing code with its chosen products, and says when a code is gone", async () => {
    const cat = await makeCategory(t.db, { name: `Linens ${suffix()}` });
    const fresh = await get(t.db, editorLoader, admin, "/admin/discounts/new");
    expect(fresh.body).toMatchObject({ notFound: false, discount: null, chosenProducts: [] });
    expect(fresh.body.categories.map((c: { id: string }) => c.id)).toContain(cat.id);

    const [p1, p2] = await makeProducts(t.db, 2, (i) => ({ name: `Pick ${i} ${suffix()}` }));
    const code = await created(form({ productIds: [p1!.id, p2!.id], categoryIds: [cat.id] }));
    const loaded = await get(t.db, editorLoader, admin, `/admin/discounts/${code.id}`, { id: code.id });
    expect(loaded.body.discount).toMatchObject({ id: code.id, used: false, categoryIds: [cat.id] });
    expect(loaded.body.chosenProducts.map((p: { id: string }) => p.id).sort()).toEqual([p1!.id, p2!.id].sort());

    expect((await get(t.db, editorLoader, admin, "/admin/discounts/x", { id: "x" })).body).toEqual({ notFound: true });
    const gone = "00000000-0000-4000-8000-00000000000a";
    expect((await get(t.db, editorLoader, admin, `/admin/discounts/${gone}`, { id: gone })).body).toEqual({ notFound: true });
  });

  it("finds products to limit a code to by part of the name or the exact SKU, 20 at most", async () => {
    const tag = `Quilt${suffix()}`;
    const made = await makeProducts(t.db, 25, (i) => ({ name: `${tag} ${String(i).padStart(2, "0")}`, sku: `SKU-${tag}-${i}`.toUpperCase() }));
    const byName = await get(t.db, productSearchLoader, admin, `/admin/discounts/products?q=${tag.toLowerCase()}`);
    expect(byName.body.products).toHaveLength(20);
    expect(byName.body.products[0]).toEqual({ id: made[0]!.id, name: `${tag} 00`, sku: made[0]!.sku, active: true });
    const bySku = await get(t.db, productSearchLoader, admin, `/admin/discounts/products?q=${made[7]!.sku}`);
    expect(bySku.body.products.map((p: { id: string }) => p.id)).toEqual([made[7]!.id]);
    expect((await get(t.db, productSearchLoader, admin, "/admin/discounts/products?q=")).body.products).toEqual([]);
  });
});

describe("discount codes: who may use them", () => {
  it("sends anonymous people to sign in and refuses customers, on every page and write; nothing changes", async () => {
    const customer = await makeCustomer(t.db);
    const code = await created(form());
    const before = await countCodes();
    for (const as of [null, customer]) {
      const expected = as ? 403 : 302;
      expect((await get(t.db, listLoader, as, "/admin/discounts")).status).toBe(expected);
      expect((await get(t.db, editorLoader, as, "/admin/discounts/new")).status).toBe(expected);
      expect((await get(t.db, editorLoader, as, `/admin/discounts/${code.id}`, { id: code.id })).status).toBe(expected);
      expect((await get(t.db, productSearchLoader, as, "/admin/discounts/products?q=a")).status).toBe(expected);
      expect((await create(form(), as)).status).toBe(expected);
      expect((await update(code.id, form({ value: "50" }), as)).status).toBe(expected);
      expect((await rowAction({ intent: "set-active", id: code.id, active: false }, as)).status).toBe(expected);
      expect((await rowAction({ intent: "delete", id: code.id }, as)).status).toBe(expected);
    }
    expect(await countCodes()).toBe(before);
    expect(await byId(code.id)).toEqual(code);
  });
});
