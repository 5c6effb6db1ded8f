import { Fragment } from "react";
import { formatMoney } from "~/lib/money";
import { orderMoneyRows, type OrderMoney } from "~/lib/order-money";
import { carrierName } from "~/lib/carriers";
import { ActionButton, Heading1, Intro, MailLayout, Paragraph } from "./layout.server";
import { addressLines, AddressBlock, MoneyTable, OrderLines, type MailAddress, type MailLineItem } from "./order-parts.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

/** An order row has all of these: the address and the quote it was placed at. */
export type OrderForMail = OrderMoney & MailAddress & { orderNumber: string };

export type ShipmentForMail = { carrier?: string | null; trackingNumber?: string | null; trackingUrl?: string | null };

const questions = (ctx: MailContext) => `Questions? Reply to this email or visit ${ctx.brand.baseUrl}/contact.`;

/** Only a web address becomes a link; anything else stored by hand is left out. */
const webUrl = (url: string | null | undefined) => (url && /^https?:\/\/[^\s]+$/i.test(url) ? url : null);

/**
 * The order confirmation: every line with its picture, every money line of the order's quote
 * (subtotal, discount, shipping, tax, total: app/lib/order-money.ts), the address, and the link to
 * the order's page (signed, so a guest opens it too).
 */
export async function orderConfirmationMail(
  ctx: MailContext,
  p: { order: OrderForMail; lines: MailLineItem[]; orderUrl: string },
): Promise<RenderedMail> {
  const { brand } = ctx;
  const { order } = p;
  const { subject, intro } = ownerText(ctx, "order-confirmation", { name: order.firstName, orderNumber: order.orderNumber });
  const money = orderMoneyRows(order, { alwaysTax: true });
  const next = "We will email you a tracking number once your order ships.";
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Order {order.orderNumber} confirmed</Heading1>
      <Intro brand={brand} text={intro} />
      <OrderLines brand={brand} lines={p.lines} />
      <MoneyTable brand={brand} rows={money} />
      <AddressBlock brand={brand} title="Shipping to" address={order} />
      <ActionButton brand={brand} href={p.orderUrl} label="View your order" />
      <Paragraph brand={brand}>{next}</Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [
    intro,
    `Order ${order.orderNumber} has been confirmed.`,
    p.lines.map((l) => `${l.quantity} × ${l.name} (${formatMoney(l.unitPriceCents)} each): ${formatMoney(l.lineTotalCents)}`),
    money.map((m) => `${m.label}: ${m.value}`),
    ["Shipping to:", ...addressLines(order)],
    `View your order: ${p.orderUrl}`,
    `${next} ${questions(ctx)}`,
  ]);
  return { subject, html, text };
}

/** Shipped: the carrier, the tracking number and the carrier's tracking page when there is one. */
export async function orderShippedMail(
  ctx: MailContext,
  p: { order: OrderForMail; shipment: ShipmentForMail; lines: MailLineItem[]; orderUrl: string },
): Promise<RenderedMail> {
  const { brand } = ctx;
  const { order, shipment } = p;
  const { subject, intro } = ownerText(ctx, "order-shipped", { name: order.firstName, orderNumber: order.orderNumber });
  const carrier = shipment.carrier ? carrierName(shipment.carrier) : "";
  const trackingUrl = webUrl(shipment.trackingUrl);
  const number = shipment.trackingNumber ?? "";
  const trackingLines = [
    carrier && carrier !== "Other" ? `Carrier: ${carrier}` : "",
    number ? `Tracking number: ${number}` : "",
    !number && !trackingUrl ? "We will send the tracking number as soon as the carrier gives it to us." : "",
  ].filter(Boolean);
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Order {order.orderNumber} has shipped</Heading1>
      <Intro brand={brand} text={intro} />
      <Paragraph brand={brand}>
        {trackingLines.map((line, i) => (
          <Fragment key={line}>
            {i > 0 ? <br /> : null}
            {line}
          </Fragment>
        ))}
      </Paragraph>
      {trackingUrl ? <ActionButton brand={brand} href={trackingUrl} label={carrier && carrier !== "Other" ? `Track it on ${carrier}` : "Track your parcel"} /> : null}
      <OrderLines brand={brand} lines={p.lines} prices={false} />
      <AddressBlock brand={brand} title="On its way to" address={order} />
      <Paragraph brand={brand}>
        Your order's page: <a href={p.orderUrl} style={{ color: brand.primary }}>{p.orderUrl}</a>
      </Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [
    intro,
    [`Order ${order.orderNumber} has shipped.`, ...trackingLines, ...(trackingUrl ? [`Track your parcel: ${trackingUrl}`] : [])],
    p.lines.map((l) => `${l.quantity} × ${l.name}`),
    ["On its way to:", ...addressLines(order)],
    `Your order's page: ${p.orderUrl}`,
    `Standard shipping takes 3-5 business days. ${questions(ctx)}`,
  ]);
  return { subject, html, text };
}

export type RefundOutcome = "none" | "refunded" | "failed";

/** Cancelled by the shop: says what happens to the money. */
export async function orderCancelledMail(
  ctx: MailContext,
  p: { order: OrderForMail & { refundedCents?: number }; refund: RefundOutcome; orderUrl: string },
): Promise<RenderedMail> {
  const { brand } = ctx;
  const { order } = p;
  const { subject, intro } = ownerText(ctx, "order-cancelled", { name: order.firstName, orderNumber: order.orderNumber });
  // Part of the order may have been refunded before the cancel: the cancel refunds only the rest.
  const earlier = order.refundedCents ?? 0;
  const rest = formatMoney(order.totalAmountCents - earlier);
  const money =
    p.refund === "none"
      ? ""
      : earlier > 0
        ? `The remaining ${rest} of your payment ${p.refund === "refunded" ? "has been" : "will be"} refunded (${formatMoney(earlier)} was refunded before).`
        : `Your payment of ${rest} ${p.refund === "refunded" ? "has been" : "will be"} refunded in full.`;
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Order {order.orderNumber} cancelled</Heading1>
      <Intro brand={brand} text={intro} />
      {money ? <Paragraph brand={brand}>{money}</Paragraph> : null}
      <ActionButton brand={brand} href={p.orderUrl} label="View your order" />
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, [`Order ${order.orderNumber} has been cancelled.`, ...(money ? [money] : [])], `Your order's page: ${p.orderUrl}`, questions(ctx)]);
  return { subject, html, text };
}

/** A payment that arrived for an order that cannot be completed (sold out, or cancelled first). */
export async function orderNotCompletedMail(ctx: MailContext, p: { order: OrderForMail; reason: string }): Promise<RenderedMail> {
  const { brand } = ctx;
  const { order } = p;
  const sorry = `We are sorry: we could not complete order ${order.orderNumber}.${p.reason ? ` ${p.reason}` : ""}`;
  const money = `Your payment of ${formatMoney(order.totalAmountCents)} is being refunded in full; nothing else is needed from you.`;
  const html = await renderHtml(
    <MailLayout brand={brand} preview={sorry}>
      <Heading1 brand={brand}>Order {order.orderNumber} could not be completed</Heading1>
      <Paragraph brand={brand}>Hello {order.firstName},</Paragraph>
      <Paragraph brand={brand}>{sorry}</Paragraph>
      <Paragraph brand={brand}>{money}</Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [`Hello ${order.firstName},`, [sorry, money], questions(ctx)]);
  return { subject: `Order ${order.orderNumber} could not be completed`, html, text };
}
