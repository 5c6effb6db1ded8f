import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useShop } from "./harness";
import { open } from "./page-helpers";

/**
 * Keyboard only (docs/rules/accessibility.md): no mouse, no element.click(). At every stop of the
 * Tab key the focused element shows a focus indicator (an outline, or a box-shadow ring with a
 * spread) and no sticky or fixed bar at the top of the window (the header) covers it.
 */

const shop = useShop({ pageTimeout: 30_000 });

/** What is wrong with the focus now, or null: where it is, whether it shows, whether the header hides it. */
async function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    // The ring fades in (a transition on box-shadow): read the style it ends with.
    await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => {})));
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    // A ring: a box-shadow whose spread (the fourth length) is above zero and whose colour is not transparent.
    const ring = style.boxShadow
      .split(/,(?![^(]*\))/)
      .some((s) => {
        const lengths = s.replace(/rgba?\([^)]*\)|oklch\([^)]*\)|oklab\([^)]*\)|color\([^)]*\)/g, "").match(/-?[\d.]+px/g) ?? [];
        const transparent = /rgba\([^)]*,\s*0\)|transparent/.test(s) || /\/\s*0\)/.test(s);
        return lengths.length >= 4 && parseFloat(lengths[3]!) > 0 && !transparent;
      });
    if (!outline && !ring) return `${name} shows no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})`;
    const box = el.getBoundingClientRect();
    for (const bar of document.querySelectorAll<HTMLElement>("body *")) {
      const pos = getComputedStyle(bar).position;
      if (pos !== "sticky" && pos !== "fixed") continue;
      if (bar.contains(el) || el.contains(bar)) continue;
      const r = bar.getBoundingClientRect();
      if (r.height === 0 || r.top > 1) continue;
      const overlap = box.top < r.bottom && box.bottom > r.top && box.left < r.right && box.right > r.left;
      // Overlapping, and the bar is drawn over it (a skip link drawn above the header is not hidden).
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + 2, box.top + 2],
        [box.right - 2, box.top + 2],
      ];
      const covered = points.some(([x, y]) => {
        const top = document.elementFromPoint(x!, y!);
        return top !== null && bar.contains(top) && !el.contains(top);
      });
      if (overlap && covered) return `${name} is under the bar at the top (${bar.tagName.toLowerCase()}.${bar.className.split(" ")[0]})`;
    }
    return null;
  });
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, checking every stop; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}) {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const problem = await focusProblem(page);
    expect(problem, problem ?? "").toBeNull();
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${target} did not get the focus within ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

/** Whether `target` comes after the focused element in the page (or nothing has the focus). */
function isAhead(target: Locator) {
  return target.evaluate((el) => {
    const from = document.activeElement;
    if (!from || from === document.body) return true;
    return Boolean(from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
}

/** Tabs forward or back, whichever way `target` lies, to it. */
async function tabToward(page: Page, target: Locator, max = 60) {
  await target.waitFor();
  await tabTo(page, target, { max, back: !(await isAhead(target)) });
}

/** Tabs to a field and types into it, as a person does. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabToward(page, field);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

/** Tabs to a link or button and presses Enter. */
async function activate(page: Page, target: Locator, max = 60) {
  await tabToward(page, target, max);
  await page.keyboard.press("Enter");
}

/** Home → product → cart → checkout by keyboard; ends on the checkout page with the focus at its top. */
async function toCheckout(page: Page, product: { id: string; name: string }) {
  await open(page, "/");
  // The card's name is its link in the Tab order (the image repeats it for the mouse only).
  await activate(page, page.getByRole("link", { name: product.name, exact: true }), 120);
  await page.waitForURL(`**/product/${product.id}`);
  await page.getByRole("heading", { level: 1, name: product.name }).waitFor();
  await activate(page, page.getByRole("button", { name: "Add to Cart" }));
  await page.getByText(`${product.name} has been added to your cart.`).first().waitFor();
  await activate(page, page.getByRole("banner").getByRole("link", { name: /cart/i }).first());
  await page.waitForURL("**/cart");
  await activate(page, page.getByRole("link", { name: "Proceed to Checkout" }));
  await page.waitForURL("**/checkout");
  await page.getByRole("button", { name: "Place Order" }).waitFor();
}

describe("keyboard only", () => {
  it("every Tab stop on the home page, down to the footer's Subscribe button, shows the focus outside the header", async () => {
    const page = await shop.newPage();
    await page.setViewportSize({ width: 1280, height: 700 });
    await open(page, "/");
    await tabTo(page, page.getByRole("button", { name: "Subscribe" }), { max: 80 });
  }, 120_000);

  it("buys a product from the home page to 'Order Confirmed!', then the owner marks it shipped, all by keyboard", async () => {
    const product = await makeProduct(shop.db, { name: "Keyboard Linen Throw", priceCents: 6400, featured: true, stockQuantity: 5 });
    const page = await shop.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await toCheckout(page, product);

    const form = page.getByRole("form", { name: "Checkout" });
    const email = `keys-${Date.now()}@example.test`;
    await typeInto(page, form.getByRole("textbox", { name: "Email" }), email);
    await typeInto(page, form.getByLabel("First Name"), "Kay");
    await typeInto(page, form.getByLabel("Last Name"), "Board");
    await typeInto(page, form.getByLabel("Address"), "1 Linen Lane");
    await typeInto(page, form.getByLabel("City"), "Springfield");
    await typeInto(page, form.getByLabel("State"), "IL");
    await typeInto(page, form.getByLabel("ZIP Code"), "62701");
    // Back up the form to its first field: going up, each field scrolls in at the top of the
    // window, where the sticky header is.
    await tabTo(page, form.getByRole("textbox", { name: "Email" }), { back: true });
    await activate(page, page.getByRole("button", { name: "Place Order" }));

    await page.waitForURL(/\/pay\/test\/test_cs_/);
    await typeInto(page, page.getByLabel("Card number"), "4242 4242 4242 4242");
    await typeInto(page, page.getByLabel("Expiry date"), "12 / 34");
    await typeInto(page, page.getByLabel("CVC"), "123");
    await activate(page, page.getByRole("button", { name: "Pay" }));
    await page.waitForURL(/\/order-success\?session_id=test_cs_/);
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    const order = await orderBySession(shop.db, new URL(page.url()).searchParams.get("session_id")!);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "processing", email });

    // The owner signs in, finds the order in the list, opens it and marks it shipped.
    const admin = await makeAdmin(shop.db);
    const owner = await shop.newPage();
    await owner.setViewportSize({ width: 1280, height: 800 });
    await open(owner, "/auth?redirectTo=%2Fadmin%2Forders");
    const signInPanel = owner.getByRole("tabpanel", { name: "Sign In" });
    await typeInto(owner, signInPanel.getByLabel("Email"), admin.email);
    await typeInto(owner, signInPanel.getByLabel("Password", { exact: true }), admin.password);
    await owner.keyboard.press("Enter");
    await owner.waitForURL("**/admin/orders");
    await owner.getByRole("heading", { name: "Order Management" }).waitFor();
    await activate(owner, owner.getByRole("table").getByRole("link", { name: order.orderNumber }), 120);
    await owner.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    await typeInto(owner, owner.getByLabel("Tracking number (optional)"), "1Z999AA10123456784");
    await activate(owner, owner.getByRole("button", { name: "Mark as shipped" }));
    await owner.getByRole("status").filter({ hasText: "Order marked as shipped. The customer has been emailed." }).waitFor();
    await owner.getByRole("list", { name: "Order timeline" }).getByText("Status changed from processing to shipped").waitFor();
  }, 180_000);

  it("at 390 px wide, from the home page to the checkout's Place Order, no Tab stop hides under the sticky header", async () => {
    const product = await makeProduct(shop.db, { name: "Keyboard Wool Pillow", priceCents: 3900, featured: true, stockQuantity: 5 });
    const page = await shop.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await toCheckout(page, product);
    // Every stop of the checkout form, top to bottom and back up, checked on the way.
    await tabTo(page, page.getByRole("button", { name: "Place Order" }), { max: 80 });
    await tabTo(page, page.getByRole("banner").getByRole("link", { name: /cart/i }).first(), { max: 80, back: true });
  }, 120_000);
});
