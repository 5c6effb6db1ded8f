import { describe, expect, it } from "vitest";
import { resolveMailTemplates } from "~/lib/mail-templates";
import type { SiteSettings } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { abandonedCheckoutMail } from "./abandoned-checkout.server";
import { mailBrand } from "./brand.server";
import type { MailContext } from "./context.server";

const BASE = "https://shop.example";
const CART_URL = `${BASE}/cart/restore?o=LL-20260101-AB12&t=token`;
const UNSUBSCRIBE_URL = `${BASE}/unsubscribe?e=ada%40example.com&t=token2`;
const LINES = [
  { name: "Percale Sheet Set", quantity: 2, unitPriceCents: 8900, lineTotalCents: 17800, imageUrl: "/media/products/sheet.webp" },
  { name: "Waffle Throw", quantity: 1, unitPriceCents: 6000, lineTotalCents: 6000, imageUrl: "" },
];

const context = (templates: unknown = {}): MailContext => ({
  brand: mailBrand(DEFAULT_SETTINGS as unknown as SiteSettings, BASE),
  templates: resolveMailTemplates(templates),
});

const mail = (ctx = context(), reason: "asked" | "subscriber" = "asked") =>
  abandonedCheckoutMail(ctx, { firstName: "Ada", lines: LINES, cartUrl: CART_URL, unsubscribeUrl: UNSUBSCRIBE_URL, reason });

describe("the abandoned-checkout reminder mail", () => {
  it("lists the lines with pictures but no prices, links back to the cart and to unsubscribe, in HTML and text", async () => {
    const m = await mail();
    expect(m.subject).toBe("Your Linen & Loft cart is waiting");
    expect(m.html).toContain(`${BASE}/resized/320/products/sheet.webp`);
    expect(m.html).toContain(`href="${CART_URL.replace(/&/g, "&amp;")}"`);
    expect(m.html).toContain(`href="${UNSUBSCRIBE_URL.replace(/&/g, "&amp;")}"`);
    expect(m.html).not.toContain("$89.00");
    expect(m.text).toContain("2 × Percale Sheet Set\n1 × Waffle Throw");
    expect(m.text).toContain(`Return to your cart: ${CART_URL}`);
    // The send log's retries find the unsubscribe link again by this line (List-Unsubscribe).
    expect(m.text).toMatch(new RegExp(`^Unsubscribe \\(no sign-in needed\\): ${UNSUBSCRIBE_URL.replace(/[?]/g, "\\?")}$`, "m"));
    expect(m.text).toContain("because you ticked 'Email me about my order'");
    expect((await mail(context(), "subscriber")).text).toContain("because you subscribe to our newsletter");
  });

  it("keeps the name typed at checkout out of the subject, even when the owner's subject asks for it", async () => {
    const ctx = context({ "abandoned-checkout": { subject: "Hello {name}, your {shopName} cart is waiting" } });
    const m = await abandonedCheckoutMail(ctx, {
      firstName: "Your account is locked, call +1 555 0100",
      lines: LINES,
      cartUrl: CART_URL,
      unsubscribeUrl: UNSUBSCRIBE_URL,
      reason: "asked",
    });
    expect(m.subject).toBe("Hello, your Linen & Loft cart is waiting");
    expect(m.subject).not.toContain("locked");
  });

  it("uses the owner's subject and intro, with script or HTML shown as text", async () => {
    const m = await mail(context({ "abandoned-checkout": { subject: "{name}, your {shopName} basket", intro: "<script>alert(1)</script> <b>Come back</b>, {name}!" } }));
    expect(m.subject).toBe("Your Linen & Loft basket");
    expect(m.html).not.toContain("<script>alert(1)</script>");
    expect(m.html).not.toContain("<b>Come back</b>");
    expect(m.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;Come back&lt;/b&gt;, Ada!");
    expect(m.text).toContain("<script>alert(1)</script> <b>Come back</b>, Ada!");
  });
});
