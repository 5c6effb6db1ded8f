import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { DiscountInput } from "~/lib/discount-input";
import type {
  AdminDiscountList,
  AdminDiscountQuery,
  AdminDiscountRow,
  DiscountCategoryChoice,
  DiscountForEdit,
  DiscountProductChoice,
  DiscountStatus,
} from "~/lib/discounts-view";
import { CatalogInputError, type CatalogRefusal, pgErrorCode, UNIQUE_VIOLATION } from "../../catalog/index.server";
import { categories, type Db, discountCodes, discountUses, pageParam, products } from "../../platform/index.server";
import { CODE_PATTERN, codeStatus, type CodeRow } from "../pricing/discount-codes.server";

/**
 * The owner's side of discount codes (`/admin/discounts`, docs/rules/admin.md, Discounts): the
 * paged list with each code's status, and create, edit, deactivate/reactivate and delete. The
 * checkout's side (checking a code, holding, keeping and giving back its uses) is
 * app/server/commerce/pricing/discount-codes.server.ts and ./uses.server.ts; `uses_count` is theirs to
 * change, never this module's.
 */

export const DISCOUNTS_PAGE_SIZE = 25;
const FOREIGN_KEY_VIOLATION = "23503";

/**
 * An expected refusal of a discount code write, with the field it belongs beside. A
 * CatalogInputError, so the admin action edge (app/routes/_edge/admin-action.server.ts) answers it
 * like the catalogue's: its kind's status, its message as the toast and beside the field.
 */
export class DiscountInputError extends CatalogInputError {
  constructor(message: string, kind: CatalogRefusal = "bad_input", field?: string) {
    super(message, kind, field);
    this.name = "DiscountInputError";
  }
}

export const DISCOUNT_ADMIN_MESSAGES = {
  notFound: "Discount code not found",
  clash: (typed: string, existing: string) =>
    typed === existing
      ? `A code ${existing} already exists`
      : `${existing} already exists, and codes ignore upper and lower case: ${typed} would be the same code`,
  deleteUsed: (code: string) =>
    `${code} has been used, so it can't be deleted: its uses are the record of what was given. Deactivate it instead.`,
  renameUsed: (code: string) => `${code} has been used, so its code can't be changed: its uses refer to it. Create a new code instead.`,
  limitBelowUses: (uses: number) => `Usage limit can't be below the ${uses} ${uses === 1 ? "use" : "uses"} already counted`,
  unknownCategory: "A chosen category no longer exists. Reload the page and choose again.",
  unknownProduct: "A chosen product no longer exists. Reload the page and choose again.",
} as const;

const M = DISCOUNT_ADMIN_MESSAGES;

/** The list's URL parameters (`q`, `page`); anything unusable falls back to the default. */
export function parseDiscountQuery(url: URL): AdminDiscountQuery {
  return { q: (url.searchParams.get("q") ?? "").trim().slice(0, 64), page: pageParam(url.searchParams) };
}

/** `%` and `_` typed by the admin are literal characters (`_` is common in codes), not wildcards. */
const containing = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function searchCondition(q: string): SQL | undefined {
  return q ? sql`lower(${discountCodes.code}) like ${containing(q)}` : undefined;
}

type ListedCode = Pick<
  CodeRow,
  | "id"
  | "code"
  | "kind"
  | "percentBasisPoints"
  | "amountCents"
  | "minSubtotalCents"
  | "startsAt"
  | "endsAt"
  | "usageLimit"
  | "usesCount"
  | "oncePerEmail"
  | "active"
  | "createdAt"
> & { restricted: boolean };

const listColumns = {
  id: discountCodes.id,
  code: discountCodes.code,
  kind: discountCodes.kind,
  percentBasisPoints: discountCodes.percentBasisPoints,
  amountCents: discountCodes.amountCents,
  minSubtotalCents: discountCodes.minSubtotalCents,
  startsAt: discountCodes.startsAt,
  endsAt: discountCodes.endsAt,
  usageLimit: discountCodes.usageLimit,
  usesCount: discountCodes.usesCount,
  oncePerEmail: discountCodes.oncePerEmail,
  active: discountCodes.active,
  createdAt: discountCodes.createdAt,
  restricted: sql<boolean>`(cardinality(${discountCodes.productIds}) > 0 or cardinality(${discountCodes.categoryIds}) > 0)`,
};

function toRow(r: ListedCode, now: Date): AdminDiscountRow {
  const status: DiscountStatus = codeStatus(r, now);
  return {
    id: r.id,
    code: r.code,
    kind: r.kind,
    percentBasisPoints: r.percentBasisPoints,
    amountCents: r.amountCents,
    minSubtotalCents: r.minSubtotalCents,
    startsAt: r.startsAt?.toISOString() ?? null,
    endsAt: r.endsAt?.toISOString() ?? null,
    usageLimit: r.usageLimit,
    usesCount: r.usesCount,
    oncePerEmail: r.oncePerEmail,
    active: r.active,
    status,
    restricted: r.restricted,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * One page of codes, newest first, searched by code (any part, case ignored), with the number
 * matching. Each row's status is `codeStatus` at `now`: the checkout's own rule.
 */
export async function listDiscountCodes(db: Db, query: AdminDiscountQuery, now = new Date()): Promise<AdminDiscountList> {
  const where = searchCondition(query.q);
  const [rows, [count]] = await Promise.all([
    db
      .select(listColumns)
      .from(discountCodes)
      .where(where)
      .orderBy(desc(discountCodes.createdAt), desc(discountCodes.id))
      .limit(DISCOUNTS_PAGE_SIZE)
      .offset((query.page - 1) * DISCOUNTS_PAGE_SIZE),
    db.select({ total: sql<number>`count(*)::int` }).from(discountCodes).where(where),
  ]);
  const total = count?.total ?? 0;
  return {
    rows: rows.map((r) => toRow(r, now)),
    total,
    page: query.page,
    pages: Math.max(1, Math.ceil(total / DISCOUNTS_PAGE_SIZE)),
    pageSize: DISCOUNTS_PAGE_SIZE,
  };
}

/** Whether a code has any use on record (held, kept or given back): then it is never deleted nor renamed. */
async function hasUses(tx: Db, row: Pick<CodeRow, "id" | "usesCount">): Promise<boolean> {
  if (row.usesCount > 0) return true;
  const [use] = await tx.select({ id: discountUses.id }).from(discountUses).where(eq(discountUses.codeId, row.id)).limit(1);
  return use !== undefined;
}

/** A code as its editor loads it, or null. */
export async function getDiscountForEdit(db: Db, id: string): Promise<DiscountForEdit | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  if (!row) return null;
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percentBasisPoints: row.percentBasisPoints,
    amountCents: row.amountCents,
    minSubtotalCents: row.minSubtotalCents,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    usageLimit: row.usageLimit,
    usesCount: row.usesCount,
    oncePerEmail: row.oncePerEmail,
    active: row.active,
    categoryIds: row.categoryIds,
    productIds: row.productIds,
    used: await hasUses(db, row),
  };
}

/** Every category (a shop has a handful), by name, for the editor's restriction list. */
export async function discountCategoryChoices(db: Db): Promise<DiscountCategoryChoice[]> {
  return db
    .select({ id: categories.id, name: categories.name, active: categories.active })
    .from(categories)
    .orderBy(asc(categories.name));
}

const productChoice = { id: products.id, name: products.name, sku: products.sku, active: products.active };

/** The products with these ids (the ones a code is limited to), by name; ids of deleted products drop out. */
export async function discountProductsById(db: Db, ids: string[]): Promise<DiscountProductChoice[]> {
  if (ids.length === 0) return [];
  return db.select(productChoice).from(products).where(inArray(products.id, ids)).orderBy(asc(products.name));
}

export const PRODUCT_SEARCH_LIMIT = 20;

/**
 * Products to limit a code to, found by a part of their name (the trigram index on lower(name))
 * or their exact SKU: at most 20, so the editor never loads a whole catalogue.
 */
export async function searchDiscountProducts(db: Db, rawQuery: string): Promise<DiscountProductChoice[]> {
  const q = rawQuery.trim().slice(0, 100);
  if (!q) return [];
  return db
    .select(productChoice)
    .from(products)
    .where(or(sql`lower(${products.name}) like ${containing(q)}`, inArray(products.sku, [q, q.toUpperCase()])))
    .orderBy(desc(products.active), asc(products.name), asc(products.id))
    .limit(PRODUCT_SEARCH_LIMIT);
}

/** The row, locked until the transaction ends (a checkout taking a use waits, and vice versa). */
async function lockCode(tx: Db, id: string): Promise<CodeRow> {
  const [row] = await tx.select().from(discountCodes).where(eq(discountCodes.id, id)).for("update");
  if (!row) throw new DiscountInputError(M.notFound, "not_found");
  return row;
}

/** Refuses a code another code already has, whatever the case of either. */
async function assertCodeFree(tx: Db, code: string, exceptId: string | null) {
  const [clash] = await tx
    .select({ code: discountCodes.code })
    .from(discountCodes)
    .where(and(sql`lower(${discountCodes.code}) = ${code.toLowerCase()}`, exceptId ? ne(discountCodes.id, exceptId) : undefined))
    .limit(1);
  if (clash) throw new DiscountInputError(M.clash(code, clash.code), "conflict", "code");
}

/** Refuses categories and products that do not exist (deleted since the editor loaded them). */
async function assertChoicesExist(tx: Db, input: DiscountInput) {
  if (input.categoryIds.length) {
    const found = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.id, input.categoryIds));
    if (found.length !== input.categoryIds.length) throw new DiscountInputError(M.unknownCategory, "bad_input", "categoryIds");
  }
  if (input.productIds.length) {
    const found = await tx.select({ id: products.id }).from(products).where(inArray(products.id, input.productIds));
    if (found.length !== input.productIds.length) throw new DiscountInputError(M.unknownProduct, "bad_input", "productIds");
  }
}

/** Parses the form (zod: every field's problem at once) and checks the code as the checkout will match it. */
function parseInput(raw: unknown): DiscountInput {
  const input = DiscountInput.parse(raw);
  // The checkout's own pattern has the last word (app/lib keeps a copy for the browser).
  if (!CODE_PATTERN.test(input.code)) throw new DiscountInputError("Code may contain only letters, digits, - and _", "bad_input", "code");
  return input;
}

function columnsOf(input: DiscountInput) {
  return {
    code: input.code,
    kind: input.kind,
    percentBasisPoints: input.percentBasisPoints,
    amountCents: input.amountCents,
    minSubtotalCents: input.minSubtotalCents,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    usageLimit: input.usageLimit,
    oncePerEmail: input.oncePerEmail,
    active: input.active,
    categoryIds: input.categoryIds,
    productIds: input.productIds,
  };
}

/** Two saves of the same code at the same moment: the unique index refuses the second, with the same message. */
async function clashesAsRefusal<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new DiscountInputError(M.clash(code, code), "conflict", "code");
    throw err;
  }
}

/** Creates a code from the editor's form; its `uses_count` starts at 0. */
export async function createDiscountCode(db: Db, raw: unknown): Promise<{ id: string; code: string }> {
  const input = parseInput(raw);
  return clashesAsRefusal(input.code, () =>
    db.transaction(async (tx) => {
      await assertCodeFree(tx, input.code, null);
      await assertChoicesExist(tx, input);
      const [row] = await tx.insert(discountCodes).values(columnsOf(input)).returning({ id: discountCodes.id, code: discountCodes.code });
      return row!;
    }),
  );
}

/**
 * Saves the editor's form over a code. A used code keeps its code text (its uses and orders
 * refer to it), and its limit may not go below the uses already counted; `uses_count` is left
 * as it is.
 */
export async function updateDiscountCode(db: Db, id: string, raw: unknown): Promise<{ id: string; code: string }> {
  const input = parseInput(raw);
  return clashesAsRefusal(input.code, () =>
    db.transaction(async (tx) => {
      const current = await lockCode(tx, id);
      if (input.code !== current.code) {
        if (await hasUses(tx, current)) throw new DiscountInputError(M.renameUsed(current.code), "conflict", "code");
        await assertCodeFree(tx, input.code, id);
      }
      if (input.usageLimit !== null && input.usageLimit < current.usesCount) {
        throw new DiscountInputError(M.limitBelowUses(current.usesCount), "bad_input", "usageLimit");
      }
      await assertChoicesExist(tx, input);
      const [row] = await tx
        .update(discountCodes)
        .set({ ...columnsOf(input), updatedAt: new Date() })
        .where(eq(discountCodes.id, id))
        .returning({ id: discountCodes.id, code: discountCodes.code });
      return row!;
    }),
  );
}

/** Deactivates (shoppers get 'This code is not valid.') or reactivates a code. */
export async function setDiscountCodeActive(db: Db, id: string, active: boolean): Promise<{ code: string; active: boolean }> {
  return db.transaction(async (tx) => {
    await lockCode(tx, id);
    const [row] = await tx
      .update(discountCodes)
      .set({ active, updatedAt: new Date() })
      .where(eq(discountCodes.id, id))
      .returning({ code: discountCodes.code, active: discountCodes.active });
    return row!;
  });
}

/** Deletes a code that was never used; a used one is refused (deactivate it instead). */
export async function deleteDiscountCode(db: Db, id: string): Promise<{ code: string }> {
  let code = "This code";
  try {
    return await db.transaction(async (tx) => {
      const current = await lockCode(tx, id);
      code = current.code;
      if (await hasUses(tx, current)) throw new DiscountInputError(M.deleteUsed(current.code), "conflict");
      await tx.delete(discountCodes).where(eq(discountCodes.id, id));
      return { code: current.code };
    });
  } catch (err) {
    // discount_uses.code_id is ON DELETE RESTRICT: the database's own word, should a use slip in.
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new DiscountInputError(M.deleteUsed(code), "conflict");
    throw err;
  }
}
