import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { type Db, orders, publicUrl, testPaymentRefunds, testPaymentSessions } from "../../platform/index.server";
import {
  CHECKOUT_SESSION_ID_PLACEHOLDER,
  PAYMENT_SESSION_LIFETIME_MS,
  WebhookSignatureError,
  type PaymentOrder,
  type PaymentProvider,
  type RemoteSession,
  type SessionUrls,
} from "./provider.server";
import { checkTestCard, type CardCheck } from "./test-card.server";


type SessionRow = typeof testPaymentSessions.$inferSelect;

export const testPaymentUrl = (sessionId: string) => `${publicUrl()}/pay/test/${encodeURIComponent(sessionId)}`;

function sessionState(row: Pick<SessionRow, "status" | "expiresAt">, now = new Date()): RemoteSession["state"] {
  if (row.status === "open") return row.expiresAt <= now ? "expired" : "open";
  if (row.status === "paid" || row.status === "refunded") return "paid";
  return row.status === "declined" ? "failed" : "expired";
}

function toRemote(row: SessionRow): RemoteSession {
  const state = sessionState(row);
  return {
    id: row.id,
    state,
    url: state === "open" ? testPaymentUrl(row.id) : null,
    orderId: row.orderId,
    amountTotalCents: row.amountCents,
    currency: row.currency,
    paymentReference: row.paymentReference,
  };
}

/**
 * The built-in provider: sessions live in `test_payment_sessions`, the shopper pays on
 * /pay/test/<id> (routes/resources/test-payment.tsx), and no money moves.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = "test" as const;
  constructor(private readonly db: Db) {}

  async createSession(order: PaymentOrder, urls: SessionUrls) {
    const id = `test_cs_${randomBytes(18).toString("base64url")}`;
    await this.db.insert(testPaymentSessions).values({
      id,
      orderId: order.id,
      amountCents: order.quote.totalCents,
      currency: order.currency,
      customerEmail: order.email,
      successUrl: urls.successUrl.replace(CHECKOUT_SESSION_ID_PLACEHOLDER, encodeURIComponent(id)),
      cancelUrl: urls.cancelUrl,
      expiresAt: new Date(Date.now() + PAYMENT_SESSION_LIFETIME_MS),
    });
    return { id, url: testPaymentUrl(id) };
  }

  async retrieveSession(id: string) {
    const [row] = await this.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, id));
    return row ? toRemote(row) : null;
  }

  async parseWebhook(): Promise<never> {
    throw new WebhookSignatureError("The test payment provider sends no webhooks.");
  }

  async expireSession(id: string) {
    await this.db
      .update(testPaymentSessions)
      .set({ status: "expired" })
      .where(and(eq(testPaymentSessions.id, id), eq(testPaymentSessions.status, "open")));
  }

  async paidSessionsSince(since: Date, limit: number) {
    const rows = await this.db
      .select({ id: testPaymentSessions.id })
      .from(testPaymentSessions)
      .where(and(eq(testPaymentSessions.status, "paid"), gt(testPaymentSessions.completedAt, since)))
      .orderBy(desc(testPaymentSessions.completedAt))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async refund(session: { id: string }, opts: { idempotencyKey?: string; amountCents?: number | null } = {}) {
    // Each refund asked for is a row, once per key (a repeated call is answered, not made twice),
    // so a test reads what was given back. Part of a payment back leaves the session paid.
    if (opts.amountCents != null) {
      const [paid] = await this.db.select({ id: testPaymentSessions.id }).from(testPaymentSessions).where(eq(testPaymentSessions.id, session.id));
      if (!paid) return;
      await this.db
        .insert(testPaymentRefunds)
        .values({ sessionId: session.id, amountCents: opts.amountCents, idempotencyKey: opts.idempotencyKey ?? `test-refund-${randomBytes(12).toString("hex")}` })
        .onConflictDoNothing({ target: testPaymentRefunds.idempotencyKey });
      return;
    }
    await this.db
      .update(testPaymentSessions)
      .set({ status: "refunded" })
      .where(and(eq(testPaymentSessions.id, session.id), eq(testPaymentSessions.status, "paid")));
  }
}

/** What the hosted test payment page shows. */
export async function getTestPaymentPage(db: Db, sessionId: string) {
  const [row] = await db
    .select({
      id: testPaymentSessions.id,
      status: testPaymentSessions.status,
      expiresAt: testPaymentSessions.expiresAt,
      amountCents: testPaymentSessions.amountCents,
      customerEmail: testPaymentSessions.customerEmail,
      successUrl: testPaymentSessions.successUrl,
      cancelUrl: testPaymentSessions.cancelUrl,
      orderNumber: orders.orderNumber,
    })
    .from(testPaymentSessions)
    .innerJoin(orders, eq(orders.id, testPaymentSessions.orderId))
    .where(eq(testPaymentSessions.id, sessionId));
  if (!row) return null;
  return { ...row, state: sessionState(row) };
}

export type TestPaymentResult =
  | { kind: "invalid"; fieldErrors: Extract<CardCheck, { ok: false }>["fieldErrors"] }
  | { kind: "not_found" }
  /**
   * paid, declined, expired or already closed: the shopper goes to the result page either way.
   * `session`: the session as this call left it (paid or declined by it).
   */
  | { kind: "done"; outcome: "paid" | "declined" | "expired" | "closed"; redirectTo: string; session?: RemoteSession };

/**
 * The Pay button. The open → paid/declined step is one conditional UPDATE, so a double click or
 * two tabs charge once. Settlement runs it inside the transaction that settles the order.
 */
export async function payTestSession(db: Db, sessionId: string, card: unknown): Promise<TestPaymentResult> {
  const [session] = await db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
  if (!session) return { kind: "not_found" };
  const redirectTo = session.successUrl;
  if (session.status !== "open") return { kind: "done", outcome: "closed", redirectTo };
  if (session.expiresAt <= new Date()) {
    await db
      .update(testPaymentSessions)
      .set({ status: "expired" })
      .where(and(eq(testPaymentSessions.id, sessionId), eq(testPaymentSessions.status, "open")));
    return { kind: "done", outcome: "expired", redirectTo };
  }
  const check = checkTestCard(card);
  if (!check.ok) return { kind: "invalid", fieldErrors: check.fieldErrors };
  const paid = check.outcome === "pays";
  const [updated] = await db
    .update(testPaymentSessions)
    .set({
      status: paid ? "paid" : "declined",
      cardLast4: check.last4,
      paymentReference: paid ? `test_pi_${randomBytes(12).toString("base64url")}` : null,
      completedAt: sql`now()`,
    })
    .where(
      and(
        eq(testPaymentSessions.id, sessionId),
        eq(testPaymentSessions.status, "open"),
        gt(testPaymentSessions.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!updated) return { kind: "done", outcome: "closed", redirectTo };
  return { kind: "done", outcome: paid ? "paid" : "declined", redirectTo, session: toRemote(updated) };
}
