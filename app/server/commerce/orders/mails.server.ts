import {
  composeMail,
  type Db,
  loadTemplates,
  logger,
  type MailDraft,
  type MailLineItem,
  type OrderForMail,
  publicUrl,
  type QueuedMail,
  queueMail,
  type RefundForMail,
} from "../../platform/index.server";
import { orderPageUrl } from "./order-link.server";

/** An order row has all of these: the address, the quote it was placed at, the email (and shipping, once shipped). */
export type MailOrder = OrderForMail & {
  email: string;
  carrier?: string | null;
  trackingNumber?: string | null;
  trackingUrl?: string | null;
};
export type MailLine = MailLineItem;

/** The order's page as the mail links it: absolute, and signed, so a guest opens it too. */
export const orderLink = (order: { orderNumber: string; email: string }) => `${publicUrl()}${orderPageUrl(order)}`;

/**
 * The order confirmation: every line with its picture, every money line of the order's quote
 * (subtotal, discount, shipping, tax, total), the address and the link to the order's page.
 */
export function orderConfirmationMail(order: MailOrder, lines: MailLine[]): MailDraft {
  return async (ctx) => (await loadTemplates()).orderConfirmationMail(ctx, { order, lines, orderUrl: orderLink(order) });
}

/** Sent when a payment arrived for an order that cannot be completed (sold out, or cancelled first): what happened and what happens to the money. */
export function notCompletedMail(order: MailOrder, reason: string): MailDraft {
  return async (ctx) => (await loadTemplates()).orderNotCompletedMail(ctx, { order, reason });
}

/** A refund the provider made: how much, for what, and that the money goes back to the card used. */
export function refundIssuedMail(order: { orderNumber: string; email: string }, refund: RefundForMail): MailDraft {
  return async (ctx) => (await loadTemplates()).refundIssuedMail(ctx, { refund, orderUrl: orderLink(order) });
}

/**
 * Records an order mail in the caller's transaction (the payment's), so the commit that makes the
 * order paid also holds its mail: SMTP down, or the server stopping right after, cannot lose it.
 * The mail's job sends it after the commit; the record is returned. A template that fails to
 * render is logged and skipped rather than failing the payment.
 */
export async function queueOrderMail(
  tx: Db,
  order: { id: string; orderNumber: string; email: string },
  draft: MailDraft,
  kind: string,
): Promise<QueuedMail | undefined> {
  let rendered;
  try {
    rendered = await composeMail(tx, draft);
  } catch (err) {
    logger.error({ err: (err as Error).message, kind, orderId: order.id, orderNumber: order.orderNumber }, "order mail could not be rendered");
    return;
  }
  const queued = await queueMail(tx, { to: order.email, kind, ...rendered });
  // The send log's lines name the mail; this one ties it to the order.
  logger.info({ kind, orderId: order.id, orderNumber: order.orderNumber, mailId: queued.id }, "order mail recorded");
  return queued;
}
