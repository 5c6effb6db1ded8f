import { formatMoney } from "~/lib/money";
import { publicUrl } from "../env.server";
import type { MailLine, MailOrder } from "./mails.server";

/** Sent when an admin marks the order shipped (the contact page promises a tracking number by email). */
export function orderShippedMail(order: MailOrder, lines: MailLine[], trackingNumber: string) {
  const text = [
    `Hello ${order.firstName},`,
    "",
    `Good news: order ${order.orderNumber} has shipped.`,
    trackingNumber ? `Tracking number: ${trackingNumber}` : "We will send the tracking number as soon as the carrier gives it to us.",
    "",
    ...lines.map((l) => `${l.quantity} × ${l.name}`),
    "",
    "On its way to:",
    `${order.firstName} ${order.lastName}`,
    order.address,
    `${order.city}, ${order.state} ${order.zipCode}`,
    order.country,
    "",
    `Standard shipping takes 3-5 business days. Questions? Reply to this email or visit ${publicUrl()}/contact.`,
  ].join("\n");
  return { subject: `Order ${order.orderNumber} has shipped`, text };
}

/** Sent when an admin cancels the order; says what happens to the money. */
export function orderCancelledMail(order: MailOrder, refund: "none" | "refunded" | "failed") {
  const money =
    refund === "refunded"
      ? `Your payment of ${formatMoney(order.totalAmountCents)} has been refunded in full.`
      : refund === "failed"
        ? `Your payment of ${formatMoney(order.totalAmountCents)} will be refunded in full.`
        : "";
  const text = [
    `Hello ${order.firstName},`,
    "",
    `Order ${order.orderNumber} has been cancelled.`,
    ...(money ? [money] : []),
    "",
    `Questions? Reply to this email or visit ${publicUrl()}/contact.`,
  ].join("\n");
  return { subject: `Order ${order.orderNumber} cancelled`, text };
}
