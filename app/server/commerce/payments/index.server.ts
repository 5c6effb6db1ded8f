import { type Db, getEnv } from "../../platform/index.server";
import type { PaymentProvider, PaymentProviderName } from "./provider.server";
import { StripePaymentProvider } from "./stripe-provider.server";
import { TestPaymentProvider } from "./test-provider.server";

export * from "./provider.server";

/** Stripe when STRIPE_SECRET_KEY is set, otherwise the built-in test provider. */
export function activePaymentProviderName(): PaymentProviderName {
  return getEnv().STRIPE_SECRET_KEY ? "stripe" : "test";
}

let stripe: { key: string; provider: StripePaymentProvider } | undefined;

/**
 * The provider for new checkouts, or the named one for an existing order (an order keeps the
 * provider it was opened with, so switching to Stripe does not strand earlier sessions).
 */
export function getPaymentProvider(db: Db, name: PaymentProviderName = activePaymentProviderName()): PaymentProvider {
  if (name === "test") return new TestPaymentProvider(db);
  const env = getEnv();
  const key = [env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET, env.STRIPE_API_HOST, env.STRIPE_API_PORT, env.STRIPE_API_PROTOCOL].join("|");
  if (stripe?.key !== key) stripe = { key, provider: new StripePaymentProvider(env) };
  return stripe.provider;
}
