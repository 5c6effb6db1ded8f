import { formatMoney } from "~/lib/money";
import { orderMoneyRows, type OrderMoney } from "~/lib/order-money";
import type { Db } from "../db/client.server";
import { publicUrl } from "../env.server";
import { logger } from "../logger.server";
import { sendMail } from "../mail/mail.server";

/** An order row has all of these: the address and the quote it was placed at (OrderMoney). */
export type MailOrder = OrderMoney & {
  orderNumber: string;
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
};
export type MailLine = { name: string; quantity: number; unitPriceCents: number; lineTotalCents: number };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The order confirmation (subject, plain text and HTML): every line, every money line of the
 * order's quote (subtotal, discount, shipping, tax, total), the address.
 */
export function orderConfirmationMail(order: MailOrder, lines: MailLine[]) {
  const money = orderMoneyRows(order, { alwaysTax: true });
  const address = [
    `${order.firstName} ${order.lastName}`,
    order.address,
    `${order.city}, ${order.state} ${order.zipCode}`,
    order.country,
  ];
  const text = [
    `Thank you for your order, ${order.firstName}!`,
    "",
    `Order ${order.orderNumber} has been confirmed.`,
    "",
    ...lines.map((l) => `${l.quantity} × ${l.name} (${formatMoney(l.unitPriceCents)} each): ${formatMoney(l.lineTotalCents)}`),
    "",
    ...money.map((m) => `${m.label}: ${m.value}`),
    "",
    "Shipping to:",
    ...address,
    "",
    `We will email you a tracking number once your order ships. Questions? Reply to this email or visit ${publicUrl()}/contact.`,
  ].join("\n");
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} × ${escapeHtml(l.name)}</td><td style="text-align:right">${formatMoney(l.lineTotalCents)}</td></tr>`,
    )
    .join("");
  const html = `<p>Thank you for your order, ${escapeHtml(order.firstName)}!</p>
<p>Order <strong>${escapeHtml(order.orderNumber)}</strong> has been confirmed.</p>
<table cellpadding="4">${rows}
${money.map(moneyRowHtml).join("\n")}
</table>
<p>Shipping to:<br>${address.map(escapeHtml).join("<br>")}</p>`;
  return { subject: `Order ${order.orderNumber} confirmed`, text, html };
}

function moneyRowHtml(m: { key: string; label: string; value: string }) {
  const cell = (s: string) => (m.key === "total" ? `<strong>${escapeHtml(s)}</strong>` : escapeHtml(s));
  return `<tr><td>${cell(m.label)}</td><td style="text-align:right">${cell(m.value)}</td></tr>`;
}

/** Sent when a payment arrived for an order that cannot be completed (sold out, or cancelled first): what happened and what happens to the money. */
export function notCompletedMail(order: MailOrder, reason: string) {
  const text = [
    `Hello ${order.firstName},`,
    "",
    `We are sorry: we could not complete order ${order.orderNumber}. ${reason}`,
    `Your payment of ${formatMoney(order.totalAmountCents)} is being refunded in full; nothing else is needed from you.`,
  ].join("\n");
  return { subject: `Order ${order.orderNumber} could not be completed`, text };
}

/** Mail never undoes a payment: a failure is logged (with the order's number) and the order stands. */
export async function sendOrderMail(
  db: Db,
  order: { id: string; orderNumber: string; email: string },
  mail: { subject: string; text: string; html?: string },
  kind: string,
) {
  try {
    await sendMail(db, { to: order.email, ...mail, kind });
  } catch (err) {
    logger.error({ err: (err as Error).message, kind, orderId: order.id, orderNumber: order.orderNumber }, "order mail could not be sent");
  }
}
