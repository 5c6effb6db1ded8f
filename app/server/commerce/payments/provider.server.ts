import type { Quote } from "~/lib/pricing-view";

/**
 * The payment adapter's contract. Two implementations: the built-in `test` provider (a hosted
 * payment page served by the shop) and Stripe Checkout. `getPaymentProvider()` in
 * index.server.ts picks one from the environment.
 */
export type PaymentProviderName = "test" | "stripe";

/** An order to be paid: the provider charges exactly `quote.totalCents` (app/server/commerce/pricing). */
export type PaymentOrder = {
  id: string;
  orderNumber: string;
  email: string;
  currency: string;
  quote: Quote;
};

/**
 * A payment page lapses an hour after it opens, Stripe's (its `expires_at`, which Stripe allows
 * from 30 minutes to 24 hours) and the test provider's alike: an unpaid checkout holds its stock
 * claim and its discount code's use no longer than that (docs/money-path.md, "Discount codes").
 */
export const PAYMENT_SESSION_LIFETIME_MS = 60 * 60 * 1000;

export type SessionUrls = {
  /** May contain `{CHECKOUT_SESSION_ID}`, replaced by the session's id (Stripe's convention). */
  successUrl: string;
  cancelUrl: string;
};

/** What the provider says about a session. `paid` means the money was taken. */
export type RemoteSession = {
  id: string;
  state: "open" | "paid" | "failed" | "expired";
  /** Where the shopper pays, while the session is open. */
  url: string | null;
  /** The order the session was opened for (Stripe's client_reference_id). */
  orderId: string | null;
  amountTotalCents: number | null;
  currency: string | null;
  /** What a refund refers to (a payment intent id). */
  paymentReference: string | null;
};

export type WebhookEvent =
  | { kind: "session"; type: string; sessionId: string }
  | { kind: "ignored"; type: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createSession(order: PaymentOrder, urls: SessionUrls, opts: { idempotencyKey: string }): Promise<{ id: string; url: string }>;
  /** null when the provider does not know the session. */
  retrieveSession(id: string): Promise<RemoteSession | null>;
  /** Verifies and reads a webhook; throws WebhookSignatureError when it cannot be trusted. */
  parseWebhook(request: Request): Promise<WebhookEvent>;
  /** Gives the payment back: `amountCents` of it, or all of it when that is null or absent. */
  refund(session: { id: string; paymentReference: string | null }, opts: { idempotencyKey: string; amountCents?: number | null }): Promise<void>;
  /**
   * Closes an open session so it can no longer be paid (its order was cancelled). A session that
   * is already paid or closed is left as it is: the caller reads it again to find out which.
   */
  expireSession(id: string): Promise<void>;
  /**
   * Ids of sessions paid at the provider since `since`, newest first, at most `limit`: how the
   * shop finds payments whose confirmation never arrived (a crash, a lost webhook).
   */
  paidSessionsSince(since: Date, limit: number): Promise<string[]>;
}

/** The provider could not be reached or refused the call. */
export class PaymentProviderError extends Error {}

/** A webhook without a valid signature: answered with 400 and ignored. */
export class WebhookSignatureError extends Error {}

export const CHECKOUT_SESSION_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";
