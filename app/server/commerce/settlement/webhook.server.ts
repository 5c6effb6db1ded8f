import { BodyTooLargeError, type Db, logger } from "../../platform/index.server";
import { WebhookSignatureError, type PaymentProviderName } from "../payments/provider.server";
import { confirmPayment, type PaymentOutcome } from "./confirm.server";
import { shopProviders, type Providers } from "./providers.server";

export type WebhookResult =
  /** Unsigned, forged or oversized (`tooLarge`): nothing changed. */
  | { kind: "refused"; reason: string; tooLarge?: true }
  /** A verified event that does not concern a payment session. */
  | { kind: "ignored"; type: string }
  | { kind: "settled"; state: Exclude<PaymentOutcome["state"], "error"> }
  /** The session could not be confirmed yet (the provider unreachable, a mismatch): deliver again later. */
  | { kind: "retry" };

/**
 * A provider's webhook: verified by the provider's adapter, then the same idempotent step the
 * result page takes (re-read the session, confirm or close its order).
 */
export async function settleFromWebhook(
  db: Db,
  providerName: PaymentProviderName,
  request: Request,
  opts: { providers?: Providers } = {},
): Promise<WebhookResult> {
  const providers = opts.providers ?? shopProviders(db);
  let event;
  try {
    event = await providers.forOrder({ paymentProvider: providerName }).parseWebhook(request);
  } catch (err) {
    if (err instanceof WebhookSignatureError || err instanceof BodyTooLargeError) {
      logger.warn({ err: err.message, provider: providerName }, "payment webhook refused");
      const refused = { kind: "refused", reason: err.message } as const;
      return err instanceof BodyTooLargeError ? { ...refused, tooLarge: true } : refused;
    }
    throw err;
  }
  if (event.kind === "ignored") return { kind: "ignored", type: event.type };
  const outcome = await confirmPayment(db, event.sessionId, { providers });
  return outcome.state === "error" ? { kind: "retry" } : { kind: "settled", state: outcome.state };
}
