import type { PaymentProviderName } from "./provider.server";

/**
 * The smallest amount Stripe charges, per currency, in the currency's smallest unit (cents, pence;
 * yen have none, so JPY 50 is ¥50). Source: Stripe's documentation, "Minimum and maximum charge
 * amounts" (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). A session below
 * it is refused by Stripe, so the checkout refuses such an order first, with what to do.
 */
export const STRIPE_MINIMUM_CHARGE: Readonly<Record<string, number>> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
};

/** Stripe's floor where its table has none: the US dollar's 50 cents. */
const STRIPE_DEFAULT_MINIMUM = 50;

/**
 * The smallest total `provider` takes in `currency`, in its smallest unit. The built-in test
 * provider takes any amount above zero.
 */
export function minimumChargeCents(provider: PaymentProviderName, currency: string): number {
  if (provider !== "stripe") return 1;
  return STRIPE_MINIMUM_CHARGE[currency.toLowerCase()] ?? STRIPE_DEFAULT_MINIMUM;
}
