import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { CustomerView, NewsletterState } from "~/lib/customers-view";
import { isUuid } from "~/lib/uuid";
import { contactMessages, customers, type Db, newsletterSubscriptions, orders, profiles, user } from "../../platform/index.server";

/** The page lists this many of a customer's orders and messages; the orders list (searched by email) has the rest. */
export const CUSTOMER_PAGE_ORDERS = 100;
export const CUSTOMER_PAGE_MESSAGES = 50;

/** The customer a /admin/customers/:id address names, or null (unknown, or not a UUID at all). */
export async function findCustomer(db: Db, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Everything the customer page shows, or null for an unknown or malformed id. */
export async function getCustomer(db: Db, id: string): Promise<CustomerView | null> {
  const c = await findCustomer(db, id);
  if (!c) return null;
  // Its orders are those placed with its address, whatever the case (orders_email_idx).
  const sameEmail = sql`lower(${orders.email}) = ${c.emailKey}`;
  const [account, orderRows, addresses, messages, subscription] = await Promise.all([
    c.userId
      ? db
          .select({
            id: user.id,
            name: user.name,
            email: user.email,
            verified: user.emailVerified,
            createdAt: user.createdAt,
            role: user.role,
            phone: profiles.phone,
          })
          .from(user)
          .leftJoin(profiles, eq(profiles.userId, user.id))
          .where(eq(user.id, c.userId))
      : Promise.resolve([]),
    db
      .select({
        id: orders.id,
        orderNumber: orders.orderNumber,
        createdAt: orders.createdAt,
        status: orders.status,
        paymentStatus: orders.paymentStatus,
        totalAmountCents: orders.totalAmountCents,
      })
      .from(orders)
      .where(sameEmail)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(CUSTOMER_PAGE_ORDERS + 1),
    db
      .select({
        address: orders.address,
        city: orders.city,
        state: orders.state,
        zipCode: orders.zipCode,
        country: orders.country,
        orders: sql<number>`count(*)::int`,
        lastUsedAt: sql<Date>`max(${orders.createdAt})`.mapWith((v: string | Date) => new Date(v)),
      })
      .from(orders)
      .where(sameEmail)
      .groupBy(orders.address, orders.city, orders.state, orders.zipCode, orders.country)
      .orderBy(sql`max(${orders.createdAt}) desc`)
      .limit(50),
    db
      .select({ id: contactMessages.id, subject: contactMessages.subject, createdAt: contactMessages.createdAt, handled: contactMessages.handled })
      .from(contactMessages)
      .where(sql`lower(${contactMessages.email}) = ${c.emailKey}`)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(CUSTOMER_PAGE_MESSAGES + 1),
    db
      .select({ confirmed: isNotNull(newsletterSubscriptions.confirmedAt) })
      .from(newsletterSubscriptions)
      .where(and(sql`lower(${newsletterSubscriptions.email}) = ${c.emailKey}`)),
  ]);
  const a = account[0];
  const newsletter: NewsletterState = subscription.length === 0 ? "none" : subscription.some((s) => s.confirmed) ? "subscribed" : "pending";
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    since: c.createdAt.toISOString(),
    ordersCount: c.ordersCount,
    spentCents: c.spentCents,
    firstOrderAt: iso(c.firstOrderAt),
    lastOrderAt: iso(c.lastOrderAt),
    newsletter,
    account: a
      ? { id: a.id, name: a.name, email: a.email, verified: a.verified, createdAt: a.createdAt.toISOString(), role: a.role, phone: a.phone ?? "" }
      : null,
    addresses: addresses.map((r) => ({ ...r, lastUsedAt: r.lastUsedAt.toISOString() })),
    orders: orderRows.slice(0, CUSTOMER_PAGE_ORDERS).map((o) => ({ ...o, createdAt: o.createdAt.toISOString() })),
    moreOrders: orderRows.length > CUSTOMER_PAGE_ORDERS,
    messages: messages.slice(0, CUSTOMER_PAGE_MESSAGES).map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
    moreMessages: messages.length > CUSTOMER_PAGE_MESSAGES,
  };
}
