import type { MailDraft } from "../mail/compose.server";
import { orderCancelledMail as cancelledTemplate, orderShippedMail as shippedTemplate, type RefundOutcome } from "../mail/templates/order.server";
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
  return (ctx) => shippedTemplate(ctx, { order, shipment, lines, orderUrl: orderLink(order) });
}

/** Sent when an admin cancels the order; says what happens to the money. */
export function orderCancelledMail(order: MailOrder, refund: RefundOutcome): MailDraft {
  return (ctx) => cancelledTemplate(ctx, { order, refund, orderUrl: orderLink(order) });
}
