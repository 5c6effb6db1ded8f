import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import { DISCOUNT_CODE_PATTERN, DISCOUNT_MESSAGES, discountMinimumMessage } from "~/lib/pricing-view";
import { builtOnce, categories, type Db, discountCodes, discountUses } from "../../platform/index.server";
import type { DiscountRule } from "./quote.server";

/** The owner's and the checkout's one rule for what a code may look like. */
export const CODE_PATTERN = DISCOUNT_CODE_PATTERN;

export type CodeRow = typeof discountCodes.$inferSelect;

/** The stored code a shopper typed (any case, spaces around ignored), or null. */
export async function findCode(db: Db, typed: string): Promise<CodeRow | null> {
  const code = codeKey(typed);
  if (code === null) return null;
  const [row] = await codeStatement(db).execute({ code });
  return row ?? null;
}

/** What a typed code is looked up by (`lower(code)`); null when it cannot be a code. */
export function codeKey(typed: string): string | null {
  const code = typed.trim();
  return CODE_PATTERN.test(code) ? code.toLowerCase() : null;
}

const codeStatement = builtOnce("pricing-code", (db) =>
  db
    .select()
    .from(discountCodes)
    .where(sql`lower(${discountCodes.code}) = ${sql.placeholder("code")}`),
);

export type CodeStatus = "active" | "inactive" | "scheduled" | "expired" | "used_up";

/** Where a code stands now, as the admin's list shows it. */
export function codeStatus(row: Pick<CodeRow, "active" | "startsAt" | "endsAt" | "usageLimit" | "usesCount">, now = new Date()): CodeStatus {
  if (!row.active) return "inactive";
  if (row.endsAt && row.endsAt <= now) return "expired";
  if (row.usageLimit !== null && row.usesCount >= row.usageLimit) return "used_up";
  if (row.startsAt && row.startsAt > now) return "scheduled";
  return "active";
}

/**
 * Why a code cannot be used on this cart now, in the shopper's words; null when it can. The
 * checkout asks again when the order is made, where taking the use is the final word. Only what
 * helps the shopper later is told apart (expired, a subtotal to reach); a code this shopper may
 * not use (inactive, not started, used up, used with this email, for other products) reads like
 * one that does not exist, so answers cannot be mined for private codes
 * (docs/rules/cart-and-checkout.md, "Discount codes cannot be guessed").
 */
export function codeRefusal(row: CodeRow | null, ctx: { now: Date; subtotalCents: number; usedByEmail: boolean; eligibleLines: number }): string | null {
  if (!row) return DISCOUNT_MESSAGES.notValid;
  const status = codeStatus(row, ctx.now);
  if (status === "inactive" || status === "scheduled") return DISCOUNT_MESSAGES.notValid;
  if (status === "expired") return DISCOUNT_MESSAGES.expired;
  if (status === "used_up") return DISCOUNT_MESSAGES.notValid;
  if (row.minSubtotalCents !== null && ctx.subtotalCents < row.minSubtotalCents) return discountMinimumMessage(row.minSubtotalCents, formatMoney);
  if (row.oncePerEmail && ctx.usedByEmail) return DISCOUNT_MESSAGES.notValid;
  // A code limited to products none of which is in the cart gives nothing.
  if (row.kind !== "free_shipping" && ctx.eligibleLines === 0) return DISCOUNT_MESSAGES.notValid;
  return null;
}

/** Whether this email already holds or kept a use of a once-per-email code. */
export async function codeUsedByEmail(db: Db, codeId: string, email: string | null | undefined): Promise<boolean> {
  if (!email) return false;
  const [use] = await db
    .select({ id: discountUses.id })
    .from(discountUses)
    .where(and(eq(discountUses.codeId, codeId), eq(discountUses.emailKey, email.trim().toLowerCase()), ne(discountUses.state, "released")))
    .limit(1);
  return use !== undefined;
}

/** The cart's products a code applies to: all when it names no products or categories. */
export async function eligibleProducts(
  db: Db,
  row: Pick<CodeRow, "productIds" | "categoryIds">,
  lines: { productId: string; category: string }[],
): Promise<Set<string> | null> {
  if (!row.productIds.length && !row.categoryIds.length) return null;
  const names = row.categoryIds.length
    ? new Set((await db.select({ name: categories.name }).from(categories).where(inArray(categories.id, row.categoryIds))).map((c) => c.name))
    : new Set<string>();
  const products = new Set(row.productIds);
  return new Set(lines.filter((l) => products.has(l.productId) || names.has(l.category)).map((l) => l.productId));
}

/** The pricing rule of a usable code. */
export function discountRule(row: CodeRow, eligible: Set<string> | null): DiscountRule {
  if (row.kind === "free_shipping") return { code: row.code, kind: "free_shipping" };
  if (row.kind === "percent") return { code: row.code, kind: "percent", basisPoints: row.percentBasisPoints ?? 0, productIds: eligible };
  return { code: row.code, kind: "fixed", amountCents: row.amountCents ?? 0, productIds: eligible };
}

export type CodeCheck = { ok: true; row: CodeRow; rule: DiscountRule } | { ok: false; message: string };

/** A typed code against a cart: its rule, or the message the shopper reads. */
export async function checkCode(
  db: Db,
  typed: string,
  cart: { lines: { productId: string; category: string }[]; subtotalCents: number; email?: string | null; now?: Date },
  /** The row, when the caller already asked for it. */
  found?: Promise<CodeRow | null>,
): Promise<CodeCheck> {
  const row = await (found ?? findCode(db, typed));
  const [eligible, usedByEmail] = await Promise.all([
    row ? eligibleProducts(db, row, cart.lines) : null,
    row?.oncePerEmail ? codeUsedByEmail(db, row.id, cart.email) : false,
  ]);
  const refusal = codeRefusal(row, {
    now: cart.now ?? new Date(),
    subtotalCents: cart.subtotalCents,
    usedByEmail,
    eligibleLines: eligible ? eligible.size : cart.lines.length,
  });
  if (refusal || !row) return { ok: false, message: refusal ?? DISCOUNT_MESSAGES.notValid };
  return { ok: true, row, rule: discountRule(row, eligible) };
}
