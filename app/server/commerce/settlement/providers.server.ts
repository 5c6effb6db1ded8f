import type { Db } from "../../platform/index.server";
import { getPaymentProvider, type PaymentProvider, type PaymentProviderName } from "../payments/index.server";

/**
 * How settlement finds a payment provider: the one this shop opens new checkouts with, and the
 * one an existing order was opened with (switching to Stripe must not strand earlier sessions).
 * Nothing outside this folder resolves a provider for an order.
 */
export type Providers = {
  forNewCheckout(): PaymentProvider;
  forOrder(order: { paymentProvider: string }): PaymentProvider;
  /** Every provider orders may have been opened with: the test provider, and Stripe when configured. */
  inUse(): PaymentProvider[];
};

/** An order names a provider this shop does not have (a row written by hand, a removed adapter). */
export class UnknownPaymentProviderError extends Error {
  constructor(readonly providerName: string) {
    super(`The payment provider "${providerName}" is not known to this shop.`);
  }
}

const isProviderName = (name: string): name is PaymentProviderName => name === "test" || name === "stripe";

/** The providers the environment configures: Stripe when STRIPE_SECRET_KEY is set, else the test provider. */
export function shopProviders(db: Db): Providers {
  return {
    forNewCheckout: () => getPaymentProvider(db),
    forOrder: (order) => {
      if (!isProviderName(order.paymentProvider)) throw new UnknownPaymentProviderError(order.paymentProvider);
      return getPaymentProvider(db, order.paymentProvider);
    },
    inUse: () => {
      const active = getPaymentProvider(db);
      return active.name === "test" ? [active] : [getPaymentProvider(db, "test"), active];
    },
  };
}

/** Every checkout and every order through one provider (tests and fault drills put a fake here). */
export function onlyProvider(provider: PaymentProvider): Providers {
  return { forNewCheckout: () => provider, forOrder: () => provider, inUse: () => [provider] };
}
