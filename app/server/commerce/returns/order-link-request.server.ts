import { eq, sql } from "drizzle-orm";
import { checkRateLimits, type Db, DomainError, orders, rateLimitRefusal } from "../../platform/index.server";
import { queueOrderLinkMail } from "./return-mails.server";

/** As many as the contact form: far more than a shopper needs, far too few to try order numbers. */
export const ORDER_LINK_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

/** Too many link requests from one client address (the edge sends Retry-After). */
export class TooManyLinkRequests extends DomainError<"rate_limited"> {
  constructor(retryAfterSeconds: number) {
    super(rateLimitRefusal(retryAfterSeconds).message, "rate_limited", { retryAfterSeconds });
  }
}

/**
 * The footer's 'Withdraw from contract' form: a guest types the order number and the order's
 * email, and the order's signed link is mailed to that email when the pair matches. The answer
 * is the same either way (the caller shows one sentence), so the form tells nobody whether an
 * order exists; counted per client address like the other forms that send mail.
 */
export async function requestOrderLink(db: Db, input: { orderNumber: string; email: string }, client: { ip: string }): Promise<void> {
  const limit = await checkRateLimits(db, [{ key: `order-link:ip:${client.ip}`, ...ORDER_LINK_LIMIT }]);
  if (!limit.ok) throw new TooManyLinkRequests(limit.retryAfterSeconds);
  const number = input.orderNumber.trim();
  const email = input.email.trim().toLowerCase();
  if (!/^[A-Za-z0-9-]{1,40}$/.test(number) || !email) return;
  const [order] = await db
    .select()
    .from(orders)
    .where(sql`${eq(orders.orderNumber, number)} and lower(${orders.email}) = ${email}`);
  if (!order) return;
  await queueOrderLinkMail(db, order);
}
