import type { MailDraft } from "../mail/compose.server";
import { loadTemplates } from "../mail/templates/load.server";
import type { RefundOutcome } from "../mail/templates/order.server";
import { orderLink, type MailLine, type MailOrder } from "./mails.server";

/**
 * Sent when an admin marks the order shipped: the carrier, the tracking number and the carrier's
 * tracking page, as stored on the order; `trackingNumber` stands in when the row has none.
 */
export function orderShippedMail(order: MailOrder, lines: MailLine[], trackingNumber: string): MailDraft {
  const shipment = {
    carrier: order.carrier ?? null,
    trackingNumber: order.trackingNumber || trackingNumber || null,
    trackingUrl: order.trackingUrl ?? null,
  };
  return async (ctx) => (await loadTemplates()).orderShippedMail(ctx, { order, shipment, lines, orderUrl: orderLink(order) });
}

/** Sent when an admin cancels the order; says what happens to the money. */
export function orderCancelledMail(order: MailOrder, refund: RefundOutcome): MailDraft {
  return async (ctx) => (await loadTemplates()).orderCancelledMail(ctx, { order, refund, orderUrl: orderLink(order) });
}
