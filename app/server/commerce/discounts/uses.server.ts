import { and, eq, isNull, lte, or, sql, gt } from "drizzle-orm";
import { DISCOUNT_MESSAGES } from "~/lib/pricing-view";
import { type Db, discountCodes, discountUses, DomainError } from "../../platform/index.server";
import { codeRefusal, type CodeRow } from "../pricing/discount-codes.server";

/**
 * A code's uses over an order's life (docs/money-path.md, "Discount codes"): held when the
 * order is made, kept when it is paid, given back when it closes unpaid. `uses_count` changes
 * only here, by conditional updates, so it never passes the limit however many checkouts race.
 */

/**
 * The code could not be held for this order (used up, expired or deactivated since the cart was
 * priced, or already used by this email); `message` is what the shopper reads. A refusal of the
 * code the shopper sent, so `bad_input` (the checkout answers it 400, docs/money-path.md).
 */
export class DiscountUnavailable extends DomainError<"bad_input"> {
  constructor(message: string) {
    super(message, "bad_input");
  }
}

/**
 * Inside the order's transaction: takes one use of the code for the order, or throws
 * DiscountUnavailable (the transaction then rolls back: no order, no use).
 */
export async function holdDiscountUse(tx: Db, code: CodeRow, order: { id: string; email: string; discountCents: number }) {
  const now = sql`now()`;
  const [taken] = await tx
    .update(discountCodes)
    .set({ usesCount: sql`${discountCodes.usesCount} + 1` })
    .where(
      and(
        eq(discountCodes.id, code.id),
        eq(discountCodes.active, true),
        or(isNull(discountCodes.usageLimit), sql`${discountCodes.usesCount} < ${discountCodes.usageLimit}`),
        or(isNull(discountCodes.startsAt), lte(discountCodes.startsAt, now)),
        or(isNull(discountCodes.endsAt), gt(discountCodes.endsAt, now)),
      ),
    )
    .returning({ id: discountCodes.id });
  if (!taken) {
    // Why not, now: deactivated, expired or used up since the cart was priced.
    const [fresh] = await tx.select().from(discountCodes).where(eq(discountCodes.id, code.id));
    const message = codeRefusal(fresh ?? null, { now: new Date(), subtotalCents: Number.MAX_SAFE_INTEGER, usedByEmail: false, eligibleLines: 1 });
    throw new DiscountUnavailable(message ?? DISCOUNT_MESSAGES.notValid);
  }
  try {
    await tx.transaction((sp) =>
      sp.insert(discountUses).values({
        codeId: code.id,
        orderId: order.id,
        emailKey: code.oncePerEmail ? order.email.trim().toLowerCase() : null,
        amountCents: order.discountCents,
      }),
    );
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    // Already used with this email: told like an unknown code, so no one learns another address's use.
    if ((e.code ?? e.cause?.code) === "23505") throw new DiscountUnavailable(DISCOUNT_MESSAGES.notValid);
    throw err;
  }
}

/** The order closed unpaid (declined, lapsed, abandoned, cancelled before payment): its use is given back. */
export async function releaseDiscountUse(tx: Db, orderId: string) {
  const [released] = await tx
    .update(discountUses)
    .set({ state: "released", settledAt: new Date() })
    .where(and(eq(discountUses.orderId, orderId), eq(discountUses.state, "held")))
    .returning({ codeId: discountUses.codeId });
  if (released) {
    await tx
      .update(discountCodes)
      .set({ usesCount: sql`greatest(${discountCodes.usesCount} - 1, 0)` })
      .where(eq(discountCodes.id, released.codeId));
  }
}

/** The order was paid: its use is kept for good (a refund later does not give it back). */
export async function keepDiscountUse(tx: Db, orderId: string) {
  await tx
    .update(discountUses)
    .set({ state: "kept", settledAt: new Date() })
    .where(and(eq(discountUses.orderId, orderId), eq(discountUses.state, "held")));
}
