import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAIL_DEFINITIONS, resolveMailTemplates } from "~/lib/mail-templates";
import type { SiteSettings } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { accountConfirmationMail, passwordResetMail } from "./account.server";
import { hslToHex, mailBrand, readableOn } from "./brand.server";
import { contactCopyMail } from "./contact.server";
import type { MailContext } from "./context.server";
import { orderCancelledMail, orderConfirmationMail, orderShippedMail, type OrderForMail } from "./order.server";

const BASE = "https://shop.example";

function context(opts: { settings?: Partial<SiteSettings>; templates?: unknown } = {}): MailContext {
  const settings = { ...(DEFAULT_SETTINGS as unknown as SiteSettings), ...opts.settings };
  return { brand: mailBrand(settings, BASE), templates: resolveMailTemplates(opts.templates ?? {}) };
}

const ORDER: OrderForMail = {
  orderNumber: "LL-20260101-AB12",
  firstName: "Ada",
  lastName: "Lovelace",
  address: "1 Analytical Row",
  city: "London",
  state: "LDN",
  zipCode: "N1 1AA",
  country: "GB",
  subtotalCents: 17800,
  discountCents: 1780,
  discountCode: "SAVE10",
  discountKind: "percent",
  shippingName: "Express",
  shippingCents: 1500,
  taxName: "VAT",
  taxRateBasisPoints: 2000,
  pricesIncludeTax: false,
  taxCents: 3204,
  totalAmountCents: 20724,
};
const LINES = [
  { name: "Percale Sheet Set", quantity: 2, unitPriceCents: 8900, lineTotalCents: 17800, imageUrl: "/media/products/sheet.webp" },
  { name: "Gift card", quantity: 1, unitPriceCents: 0, lineTotalCents: 0, imageUrl: "" },
];
const ORDER_URL = `${BASE}/profile/orders/LL-20260101-AB12?t=token`;

/** The visible text of a mail's HTML, tags dropped and entities of the escaped kind decoded. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe("the order confirmation", async () => {
  const mail = await orderConfirmationMail(context(), { order: ORDER, lines: LINES, orderUrl: ORDER_URL });

  it("keeps today's subject and lists every money line in the HTML table and the text", () => {
    expect(mail.subject).toBe("Order LL-20260101-AB12 confirmed");
    const rows = [...mail.html.matchAll(/<tr data-money="([a-z]+)"><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual([
      ["subtotal", "Subtotal", "$178.00"],
      ["discount", "Discount (SAVE10)", "−$17.80"],
      ["shipping", "Shipping (Express)", "$15.00"],
      ["tax", "VAT 20%", "$32.04"],
      ["total", "Total", "$207.24"],
    ]);
    expect(mail.text).toContain("Subtotal: $178.00\nDiscount (SAVE10): −$17.80\nShipping (Express): $15.00\nVAT 20%: $32.04\nTotal: $207.24");
    expect(mail.text).toContain("2 × Percale Sheet Set ($89.00 each): $178.00");
  });

  it("pictures the lines with absolute addresses and alt texts, links the order page, shows the address", () => {
    expect(mail.html).toContain(`src="${BASE}/resized/320/products/sheet.webp"`);
    expect(mail.html).toMatch(/<img alt="Percale Sheet Set"/);
    // A line without a picture has no broken image.
    expect(mail.html.match(/<img /g)).toHaveLength(1);
    expect(mail.html).toContain(`href="${ORDER_URL.replace("?", "?")}"`);
    expect(visible(mail.html)).toContain("Ada Lovelace 1 Analytical Row London, LDN N1 1AA GB");
    expect(mail.text).toContain(`View your order: ${ORDER_URL}`);
    expect(mail.text).toContain("Shipping to:\nAda Lovelace\n1 Analytical Row\nLondon, LDN N1 1AA\nGB");
  });

  it("is a table layout in the shop's colours, with the shop's name and a hidden preview line", () => {
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html).toContain('role="presentation"');
    expect(mail.html).toContain("#2662d9"); // hsl(220, 70%, 50%), the default primary
    expect(visible(mail.html)).toContain("Linen & Loft");
    expect(mail.html).toContain("Thank you for your order, Ada! We are getting it ready.");
  });
});

describe("the owner's subject and intro", () => {
  const hostile = {
    "order-confirmation": {
      subject: "Your order {orderNumber} <b>is in</b>",
      intro: '<script>alert("x")</script>\nHi {name}, <img src=x onerror=alert(1)> thanks from {shopName} {unknown}',
    },
  };

  it("are filled in and escaped: script or HTML in the intro shows as text, never as markup", async () => {
    const mail = await orderConfirmationMail(context({ templates: hostile }), { order: ORDER, lines: LINES, orderUrl: ORDER_URL });
    expect(mail.subject).toBe("Your order LL-20260101-AB12 <b>is in</b>");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br/>Hi Ada, &lt;img src=x onerror=alert(1)&gt; thanks from Linen &amp; Loft {unknown}");
    expect(mail.text).toContain('<script>alert("x")</script>\nHi Ada, <img src=x onerror=alert(1)> thanks from Linen & Loft {unknown}');
  });

  it("fall back to today's texts when blank, too long or not one line", async () => {
    const templates = { "order-confirmation": { subject: "two\nlines", intro: "x".repeat(1001) }, "password-reset": { subject: "  " } };
    const ctx = context({ templates });
    expect(ctx.templates["order-confirmation"]).toEqual({ subject: MAIL_DEFINITIONS["order-confirmation"].subject, intro: MAIL_DEFINITIONS["order-confirmation"].intro });
    const reset = await passwordResetMail(ctx, { url: `${BASE}/api/auth/reset-password/abc` });
    expect(reset.subject).toBe("Reset your Linen & Loft password");
  });

  it("never reach the HTML through dangerouslySetInnerHTML", () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    for (const file of fs.readdirSync(dir)) {
      expect(fs.readFileSync(path.join(dir, file), "utf8").replace(/never reach the HTML through dangerouslySetInnerHTML|"dangerouslySetInnerHTML"/g, "")).not.toContain(
        "dangerouslySetInnerHTML",
      );
    }
  });
});

describe("account mails", () => {
  const url = `${BASE}/api/auth/verify-email?token=t0k&callbackURL=%2Fauth%2Fconfirmed`;

  it("the confirmation carries its link as a button and written out, and the text's first link is it", async () => {
    const mail = await accountConfirmationMail(context(), { name: "Maya Okafor", url });
    expect(mail.subject).toBe("Confirm your Linen & Loft account");
    expect(mail.html).toContain(`href="${url.replace(/&/g, "&amp;")}"`);
    expect(visible(mail.html)).toContain("Confirm my account");
    expect(visible(mail.html)).toContain(`Or open this address: ${url}`);
    expect(/https?:\/\/\S+/.exec(mail.text)?.[0]).toBe(url);
    expect(mail.text).toContain("If you did not sign up, ignore this mail.");
  });

  it("the shop's name and logo come from Site Settings; without images the logo's alt text names the shop", async () => {
    const ctx = context({ settings: { site_branding: { logo_text: "Maison Lin", logo_url: "/media/logo-1.png" } } });
    const mail = await passwordResetMail(ctx, { url: `${BASE}/api/auth/reset-password/abc?callbackURL=x` });
    expect(mail.subject).toBe("Reset your Maison Lin password");
    expect(mail.html).toContain(`<img alt="Maison Lin" height="40" src="${BASE}/media/logo-1.png"`);
    expect(mail.text).toContain("Maison Lin · https://shop.example/");
  });
});

describe("order shipped and cancelled", () => {
  it("names the carrier, the tracking number and links the carrier's tracking page", async () => {
    const shipment = { carrier: "ups", trackingNumber: "1Z999AA10123456784", trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784" };
    const mail = await orderShippedMail(context(), { order: ORDER, shipment, lines: LINES, orderUrl: ORDER_URL });
    expect(mail.subject).toBe("Order LL-20260101-AB12 has shipped");
    expect(visible(mail.html)).toContain("Carrier: UPS");
    expect(visible(mail.html)).toContain("Tracking number: 1Z999AA10123456784");
    expect(mail.html).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');
    expect(visible(mail.html)).toContain("Track it on UPS");
    expect(mail.text).toContain("Tracking number: 1Z999AA10123456784\nTrack your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784");
  });

  it("'Other' links its own page; an address that is not http(s) is never a link", async () => {
    const other = await orderShippedMail(context(), {
      order: ORDER,
      shipment: { carrier: "other", trackingNumber: null, trackingUrl: "https://parcels.example/t/42" },
      lines: LINES,
      orderUrl: ORDER_URL,
    });
    expect(other.html).toContain('href="https://parcels.example/t/42"');
    expect(visible(other.html)).toContain("Track your parcel");
    const hostile = await orderShippedMail(context(), {
      order: ORDER,
      shipment: { carrier: "other", trackingNumber: "AB-1234", trackingUrl: "javascript:alert(1)" },
      lines: LINES,
      orderUrl: ORDER_URL,
    });
    expect(hostile.html).not.toContain("javascript:");
    expect(hostile.text).not.toContain("javascript:");
  });

  it("the cancellation says what happens to the money", async () => {
    const refunded = await orderCancelledMail(context(), { order: ORDER, refund: "refunded", orderUrl: ORDER_URL });
    expect(refunded.subject).toBe("Order LL-20260101-AB12 cancelled");
    expect(refunded.text).toContain("Your payment of $207.24 has been refunded in full.");
    expect(visible(refunded.html)).toContain("Your payment of $207.24 has been refunded in full.");
    const pending = await orderCancelledMail(context(), { order: ORDER, refund: "failed", orderUrl: ORDER_URL });
    expect(pending.text).toContain("will be refunded in full");
    const unpaid = await orderCancelledMail(context(), { order: ORDER, refund: "none", orderUrl: ORDER_URL });
    expect(unpaid.text).not.toContain("refunded");
  });

  it("a cancel after a partial refund says only the rest is refunded, not the whole payment", async () => {
    const rest = await orderCancelledMail(context(), { order: { ...ORDER, refundedCents: 2500 }, refund: "refunded", orderUrl: ORDER_URL });
    expect(rest.text).toContain("The remaining $182.24 of your payment has been refunded ($25.00 was refunded before).");
    expect(rest.text).not.toContain("in full");
    const pending = await orderCancelledMail(context(), { order: { ...ORDER, refundedCents: 2500 }, refund: "failed", orderUrl: ORDER_URL });
    expect(pending.text).toContain("The remaining $182.24 of your payment will be refunded");
  });
});

describe("the contact-form copy", () => {
  it("escapes what the visitor typed and keeps the message's lines", async () => {
    const mail = await contactCopyMail(context(), {
      name: "Eve <eve@x>",
      email: "eve@example.test",
      subject: "<b>Hi</b>",
      message: "Line one\n<script>alert(1)</script>",
    });
    expect(mail.subject).toBe("Contact form: <b>Hi</b>");
    expect(mail.html).not.toContain("<script>alert(1)");
    expect(mail.html).toContain("Line one\n&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).toContain("white-space:pre-wrap");
    expect(mail.text).toContain("From: Eve <eve@x> <eve@example.test>\nSubject: <b>Hi</b>\n\nLine one\n<script>alert(1)</script>");
  });
});

describe("colours", () => {
  it("converts the theme's hsl() to hex and picks readable text on it", () => {
    expect(hslToHex("hsl(220, 70%, 50%)")).toBe("#2662d9");
    expect(hslToHex("hsl(0 0% 100%)")).toBe("#ffffff");
    expect(hslToHex("red")).toBeNull();
    expect(readableOn("#2662d9")).toBe("#ffffff");
    expect(readableOn("#ffe066")).toBe("#0f172a");
  });
});
