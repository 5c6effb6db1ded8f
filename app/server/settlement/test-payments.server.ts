import type { Db } from "../db/client.server";
import { payTestSession, type TestPaymentResult } from "../payments/test-provider.server";
import { confirmPayment } from "./confirm.server";
import type { Providers } from "./providers.server";

/**
 * The built-in test provider's Pay button: the card is charged (or declined) at the provider, then
 * the order is settled at once, as Stripe's webhook would, whatever the shopper's browser does next.
 */
export async function payWithTestCard(db: Db, sessionId: string, card: unknown, opts: { providers?: Providers } = {}): Promise<TestPaymentResult> {
  const result = await payTestSession(db, sessionId, card);
  if (result.kind === "done") await confirmPayment(db, sessionId, opts);
  return result;
}
