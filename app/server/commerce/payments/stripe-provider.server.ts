import type Stripe from "stripe";
import { type Env, readBodyText } from "../../platform/index.server";
import {
  PAYMENT_SESSION_LIFETIME_MS,
  PaymentProviderError,
  WebhookSignatureError,
  type PaymentOrder,
  type PaymentProvider,
  type RemoteSession,
  type SessionUrls,
  type WebhookEvent,
} from "./provider.server";
import { stripeCheckoutParts, stripeLineItems, stripeShippingOptions, stripeTotal } from "./stripe-lines.server";

/** Events that change a Checkout Session's payment; each makes the shop re-read the session. */
const SESSION_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

function toRemote(s: Stripe.Checkout.Session): RemoteSession {
  const paid = s.status === "complete" && (s.payment_status === "paid" || s.payment_status === "no_payment_required");
  return {
    id: s.id,
    // A completed session still unpaid is an asynchronous payment in flight: still open for us.
    state: s.status === "expired" ? "expired" : paid ? "paid" : "open",
    url: s.url ?? null,
    orderId: s.client_reference_id ?? s.metadata?.order_id ?? null,
    amountTotalCents: s.amount_total ?? null,
    currency: s.currency ?? null,
    paymentReference: typeof s.payment_intent === "string" ? s.payment_intent : (s.payment_intent?.id ?? null),
  };
}


export class StripePaymentProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  private readonly webhookSecret: string | undefined;
  private client: Promise<Stripe> | undefined;

  constructor(private readonly env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_HOST" | "STRIPE_API_PORT" | "STRIPE_API_PROTOCOL">) {
    if (!env.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
    this.webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  }

  /** The SDK, loaded on first use rather than at every start (about 0.15 s of a start's CPU). */
  private stripe(): Promise<Stripe> {
    const env = this.env;
    return (this.client ??= import("stripe").then(
      ({ default: Sdk }) =>
        new Sdk(env.STRIPE_SECRET_KEY!, {
          host: env.STRIPE_API_HOST,
          port: env.STRIPE_API_PORT,
          protocol: env.STRIPE_API_PROTOCOL,
          maxNetworkRetries: 2,
          timeout: 20_000,
          telemetry: false,
          appInfo: { name: "Linen & Loft" },
        }),
    ));
  }

  async createSession(order: PaymentOrder, urls: SessionUrls, opts: { idempotencyKey: string }) {
    const parts = stripeCheckoutParts(order.quote);
    // Never open a page that charges anything but the quote's total.
    if (stripeTotal(parts) !== order.quote.totalCents) {
      throw new PaymentProviderError(`Stripe's total ${stripeTotal(parts)} would differ from the order's ${order.quote.totalCents}`);
    }
    try {
      const stripe = await this.stripe();
      const coupon =
        parts.couponAmountOff > 0
          ? await stripe.coupons.create(
              {
                amount_off: parts.couponAmountOff,
                currency: order.currency,
                duration: "once",
                max_redemptions: 1,
                name: order.quote.discount?.code.slice(0, 40),
              },
              { idempotencyKey: `${opts.idempotencyKey}-coupon` },
            )
          : null;
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: stripeLineItems(parts, order.currency),
          shipping_options: stripeShippingOptions(parts, order.currency),
          discounts: coupon ? [{ coupon: coupon.id }] : undefined,
          success_url: urls.successUrl,
          cancel_url: urls.cancelUrl,
          customer_email: order.email,
          expires_at: Math.floor((Date.now() + PAYMENT_SESSION_LIFETIME_MS) / 1000),
          client_reference_id: order.id,
          metadata: { order_id: order.id, order_number: order.orderNumber },
          payment_intent_data: { metadata: { order_id: order.id, order_number: order.orderNumber } },
        },
        { idempotencyKey: opts.idempotencyKey },
      );
      if (!session.url) throw new PaymentProviderError("Stripe returned a session without a URL");
      return { id: session.id, url: session.url };
    } catch (err) {
      throw asProviderError(err, "create a Checkout Session");
    }
  }

  async retrieveSession(id: string) {
    try {
      const stripe = await this.stripe();
      const session = await stripe.checkout.sessions.retrieve(id);
      const remote = toRemote(session);
      // A completed, unpaid session is a delayed payment (a bank debit): in flight, or failed —
      // only its PaymentIntent tells which (checkout.session.async_payment_failed).
      if (session.status === "complete" && session.payment_status === "unpaid" && remote.paymentReference) {
        const intent = await stripe.paymentIntents.retrieve(remote.paymentReference);
        if (intent.status === "requires_payment_method" || intent.status === "canceled") return { ...remote, state: "failed" as const };
      }
      return remote;
    } catch (err) {
      if ((err as { code?: string }).code === "resource_missing") return null;
      throw asProviderError(err, "read a Checkout Session");
    }
  }

  async parseWebhook(request: Request): Promise<WebhookEvent> {
    if (!this.webhookSecret) throw new WebhookSignatureError("STRIPE_WEBHOOK_SECRET is not set, so no webhook can be verified.");
    const signature = request.headers.get("stripe-signature");
    if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header.");
    // Stripe's events are a few kilobytes; the signature is checked over the exact bytes.
    const payload = await readBodyText(request, 512 * 1024);
    const stripe = await this.stripe();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(payload, signature, this.webhookSecret);
    } catch {
      throw new WebhookSignatureError("Invalid Stripe signature.");
    }
    if (!SESSION_EVENTS.has(event.type)) return { kind: "ignored", type: event.type };
    const session = event.data.object as { id?: unknown };
    if (typeof session.id !== "string") return { kind: "ignored", type: event.type };
    return { kind: "session", type: event.type, sessionId: session.id };
  }

  async expireSession(id: string) {
    try {
      const stripe = await this.stripe();
      const session = await stripe.checkout.sessions.retrieve(id);
      if (session.status !== "open") return;
      await stripe.checkout.sessions.expire(id);
    } catch (err) {
      // Paid or expired between the two calls: Stripe refuses, and the caller reads the session again.
      if ((err as { type?: string }).type === "StripeInvalidRequestError") return;
      throw asProviderError(err, "expire a Checkout Session");
    }
  }

  async paidSessionsSince(since: Date, limit: number) {
    const ids: string[] = [];
    try {
      const stripe = await this.stripe();
      for await (const s of stripe.checkout.sessions.list({ created: { gte: Math.floor(since.getTime() / 1000) }, status: "complete", limit: 100 })) {
        if (s.payment_status === "paid" || s.payment_status === "no_payment_required") ids.push(s.id);
        if (ids.length >= limit) break;
      }
    } catch (err) {
      throw asProviderError(err, "list Checkout Sessions");
    }
    return ids;
  }

  async refund(session: { id: string; paymentReference: string | null }, opts: { idempotencyKey: string; amountCents?: number | null }) {
    let paymentIntent = session.paymentReference;
    if (!paymentIntent) paymentIntent = (await this.retrieveSession(session.id))?.paymentReference ?? null;
    if (!paymentIntent) throw new PaymentProviderError(`Session ${session.id} has no payment to refund`);
    try {
      const stripe = await this.stripe();
      const part = opts.amountCents != null ? { amount: opts.amountCents } : {};
      await stripe.refunds.create({ payment_intent: paymentIntent, ...part }, { idempotencyKey: opts.idempotencyKey });
    } catch (err) {
      // Refunded already (by hand in Stripe's dashboard, or by a try whose answer was lost): done.
      if ((err as { code?: string }).code === "charge_already_refunded") return;
      throw asProviderError(err, "refund a payment");
    }
  }
}

function asProviderError(err: unknown, what: string) {
  if (err instanceof PaymentProviderError) return err;
  return new PaymentProviderError(`Stripe could not ${what}: ${(err as Error).message ?? String(err)}`);
}
