import { and, desc, eq, ne } from "drizzle-orm";
import type { MailTemplateText } from "~/lib/mail-templates";
import type { Db } from "../db/client.server";
import { products } from "../db/schema";
import type { MailContext, RenderedMail } from "./templates/context.server";
import { loadTemplates } from "./templates/load.server";
import type { OrderForMail } from "./templates/order.server";
import type { MailLineItem } from "./templates/order-parts.server";

/**
 * Every mail of the shop filled with made-up data: the owner's preview and 'Send me a test' in
 * Site Settings → Emails, and the screenshots in docs/mails (scripts/mail-screenshots.ts).
 */

export const SAMPLE_MAILS = [
  "email-verification",
  "password-reset",
  "order-confirmation",
  "order-shipped",
  "order-cancelled",
  "order-not-completed",
  "contact",
  "abandoned-checkout",
  "return-requested",
  "withdrawal-received",
  "refund-issued",
  "account-deletion",
  "data-export",
  "data-erasure",
] as const;
export type SampleMail = (typeof SAMPLE_MAILS)[number];

export const SAMPLE_ORDER: OrderForMail = {
  orderNumber: "LL-SAMPLE-0001",
  firstName: "Alex",
  lastName: "Rivera",
  address: "12 Linen Lane, Apt 4",
  city: "Portland",
  state: "OR",
  zipCode: "97205",
  country: "US",
  subtotalCents: 21800,
  discountCents: 2180,
  discountCode: "WELCOME10",
  discountKind: "percent",
  shippingName: "Express",
  shippingCents: 1500,
  taxName: "Sales tax",
  taxRateBasisPoints: 800,
  pricesIncludeTax: false,
  taxCents: 1570,
  totalAmountCents: 22690,
};

export const SAMPLE_LINES: MailLineItem[] = [
  { name: "Stonewashed Linen Duvet Cover", quantity: 1, unitPriceCents: 14800, lineTotalCents: 14800, imageUrl: null },
  { name: "Percale Pillowcase Pair", quantity: 2, unitPriceCents: 3500, lineTotalCents: 7000, imageUrl: null },
];

/** The sample order's lines, pictured with the shop's own newest products when it has some. */
export async function sampleLines(db: Db): Promise<MailLineItem[]> {
  const rows = await db
    .select({ name: products.name, priceCents: products.priceCents, imageUrl: products.imageUrl })
    .from(products)
    .where(and(eq(products.active, true), ne(products.imageUrl, "")))
    .orderBy(desc(products.createdAt))
    .limit(2);
  if (rows.length < 2) return SAMPLE_LINES;
  return rows.map((r, i) => ({
    name: r.name,
    quantity: i + 1,
    unitPriceCents: r.priceCents,
    lineTotalCents: r.priceCents * (i + 1),
    imageUrl: r.imageUrl,
  }));
}

/** The sample order priced from its lines, so every money line adds up. */
function sampleOrder(lines: MailLineItem[]): OrderForMail {
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const discount = Math.round(subtotal / 10);
  const tax = Math.round(((subtotal - discount) * 800) / 10_000);
  return { ...SAMPLE_ORDER, subtotalCents: subtotal, discountCents: discount, taxCents: tax, totalAmountCents: subtotal - discount + 1500 + tax };
}

/** One mail with sample data; `override` replaces the owner's saved subject and intro (the unsaved editor). */
export async function renderSampleMail(
  ctx: MailContext,
  kind: SampleMail,
  opts: { lines?: MailLineItem[]; override?: Partial<MailTemplateText> } = {},
): Promise<RenderedMail> {
  const {
    accountConfirmationMail,
    passwordResetMail,
    orderConfirmationMail,
    orderShippedMail,
    orderCancelledMail,
    orderNotCompletedMail,
    contactCopyMail,
    abandonedCheckoutMail,
    returnRequestedMail,
    withdrawalReceivedMail,
    refundIssuedMail,
    accountDeletionMail,
    dataExportMail,
    dataErasureMail,
  } = await loadTemplates();
  const lines = opts.lines ?? SAMPLE_LINES;
  const order = sampleOrder(lines);
  const base = ctx.brand.baseUrl;
  const orderUrl = `${base}/profile/orders/${order.orderNumber}?t=sample`;
  if (opts.override && kind in ctx.templates) {
    const k = kind as keyof MailContext["templates"];
    const current = ctx.templates[k];
    ctx = {
      ...ctx,
      templates: {
        ...ctx.templates,
        [k]: { subject: opts.override.subject || current.subject, intro: opts.override.intro || current.intro },
      },
    };
  }
  switch (kind) {
    case "email-verification":
      return accountConfirmationMail(ctx, { name: order.firstName, url: `${base}/auth` });
    case "password-reset":
      return passwordResetMail(ctx, { name: order.firstName, url: `${base}/auth/forgot-password` });
    case "order-confirmation":
      return orderConfirmationMail(ctx, { order, lines, orderUrl });
    case "order-shipped":
      return orderShippedMail(ctx, {
        order,
        lines,
        orderUrl,
        shipment: { carrier: "ups", trackingNumber: "1Z999AA10123456784", trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784" },
      });
    case "order-cancelled":
      return orderCancelledMail(ctx, { order, refund: "refunded", orderUrl });
    case "order-not-completed":
      return orderNotCompletedMail(ctx, { order, reason: `"${lines[0]?.name ?? "An item"}" sold out before your payment went through.` });
    case "contact":
      return contactCopyMail(ctx, {
        name: "Sam Taylor",
        email: "sam@example.com",
        subject: "Do you make a super king duvet?",
        message: "Hello,\nI love the stonewashed duvet cover. Do you make it in super king?\n\nThanks, Sam",
      });
    case "abandoned-checkout":
      return abandonedCheckoutMail(ctx, {
        firstName: order.firstName,
        lines,
        cartUrl: `${base}/cart/restore?o=${order.orderNumber}&t=sample`,
        unsubscribeUrl: `${base}/unsubscribe?e=alex%40example.com&t=sample`,
        reason: "asked",
      });
    case "return-requested":
    case "withdrawal-received": {
      const ret = { orderNumber: order.orderNumber, returnNumber: `R-${order.orderNumber}-1`, firstName: order.firstName, lines: lines.map((l) => ({ name: l.name, quantity: l.quantity })) };
      return kind === "return-requested"
        ? returnRequestedMail(ctx, { ret, orderUrl })
        : withdrawalReceivedMail(ctx, { ret, withdrawnAt: "2026-03-14 09:30 UTC", orderUrl });
    }
    case "refund-issued": {
      const first = lines[0]!;
      return refundIssuedMail(ctx, {
        refund: {
          orderNumber: order.orderNumber,
          firstName: order.firstName,
          amountCents: first.unitPriceCents + 500,
          lines: [{ name: first.name, quantity: 1, amountCents: first.unitPriceCents }],
          shippingCents: 500,
          adjustmentCents: 0,
          cardLast4: "4242",
        },
        orderUrl,
      });
    }
    case "account-deletion":
      return accountDeletionMail(ctx, { name: order.firstName, url: `${base}/profile/data-request?token=sample` });
    case "data-export":
      return dataExportMail(ctx, { url: `${base}/profile/data-request?token=sample` });
    case "data-erasure":
      return dataErasureMail(ctx, { url: `${base}/profile/data-request?token=sample` });
  }
}
