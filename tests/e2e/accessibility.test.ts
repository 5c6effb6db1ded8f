import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { saveReturnsSetting } from "~/server/commerce/returns/returns-setting.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { useDatabase } from "~/server/platform/db/client.server";
import { contactMessages, customers, mailOutbox, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makePost } from "../factories/posts";
import { makeDiscountCode } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer } from "../factories/users";
import { check, pagesByRole, WIDTHS, type Finding, type Role } from "./axe-helpers";
import { reportIfFailed } from "./failure-report";
import { launchBrowser, startShop } from "./harness";
import { hydrated } from "./page-helpers";
import { routeMap, TOKEN_PARAMS, type RouteInfo } from "./route-map";

/**
 * WCAG 2.2 AA on every page (docs/rules/accessibility.md): axe-core's WCAG 2.0, 2.1 and 2.2 A and
 * AA rules find no violation on any page of app/routes.ts, at 1280 and 390 px wide, with lists
 * empty and full, and in the states people meet (dialogs and the admin drawer open, forms showing
 * their errors). The pages come from app/routes.ts, so a page added tomorrow is checked too; a
 * page whose URL has a parameter or a link's token needs a sample below, or the test fails.
 */

let shop: Awaited<ReturnType<typeof startShop>>;
let browser: Browser;
/** One context (and one reused page) per role. */
const pages = {} as Record<Role, Page>;
const contexts: BrowserContext[] = [];
let customerId = "";

beforeAll(async () => {
  shop = await startShop();
  useDatabase(shop.db, shop.test.url);
  browser = await launchBrowser();
  const customer = await makeCustomer(shop.db);
  customerId = customer.id;
  const admin = await makeAdmin(shop.db);
  const made = await pagesByRole(browser, shop, { customer, admin });
  Object.assign(pages, made.pages);
  contexts.push(...made.contexts);
}, 90_000);

// What the pages and the shop showed when a test failed (the pages are kept for the next test).
afterEach((ctx) => reportIfFailed(ctx, contexts, shop));

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  await browser?.close();
  await shop?.stop();
  await shop?.test.drop();
});

/**
 * Visits each URL once with the role's page and checks it at each width: loaded at the first,
 * then resized, as a visitor turning a tablet would (the layout follows the media queries and
 * the components that watch them; one load per page halves the walk's time).
 */
async function checkPages(targets: { url: string; role: Role }[]): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const { url, role } of targets) {
    const page = pages[role];
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await page.goto(url, { waitUntil: "load" });
    for (const width of WIDTHS) {
      if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: 900 });
      found.push(...(await check(page, `${url} as the ${role}`)));
    }
  }
  return found;
}

/** Samples for a route's parameters and its link's token; a route with neither needs none. */
type Samples = Record<string, string>;

const TOKEN_QUERY = new URLSearchParams([...TOKEN_PARAMS.map((p) => [p, "a11y-test-token"]), ["e", "someone@example.test"]]);

/** The URL of a page route with its parameters filled from `samples`; null when one is missing. */
function urlOf(r: RouteInfo, samples: Samples): string | null {
  let missing = false;
  const path = r.pattern.replace(/:(\w+)\??|\*/g, (_, name: string | undefined) => {
    const value = samples[name ?? "*"];
    if (value === undefined) missing = true;
    return value ?? "";
  });
  if (missing) return null;
  const query = samples[`${r.pattern}?`] ?? (r.takesToken && !r.pattern.includes(":sessionId") ? TOKEN_QUERY.toString() : "");
  return query ? `${path}?${query}` : path;
}

/** Who looks at the page: the admin for /admin, a signed-out visitor for the sign-in pages. */
function roleOf(pattern: string, cartFull: boolean): Role {
  if (pattern.startsWith("/admin")) return "admin";
  if (pattern.startsWith("/auth")) return "visitor";
  if (pattern.startsWith("/profile")) return "customer";
  return cartFull ? "customer" : "visitor";
}

function targetsOf(samples: Samples, cartFull: boolean) {
  const routes = routeMap().filter((r) => r.page);
  const missing = routes.filter((r) => urlOf(r, samples) === null).map((r) => r.pattern);
  // A page added to app/routes.ts with a parameter needs a sample here.
  expect(missing, "pages without a sample URL in tests/e2e/accessibility.test.ts").toEqual([]);
  return routes.map((r) => ({ url: urlOf(r, samples)!, role: roleOf(r.pattern, cartFull) }));
}

/** Samples that lead nowhere: the empty pass sees each page's "not found" or empty state. */
const NIL_ID = "00000000-0000-4000-8000-000000000000";
const emptySamples: Samples = {
  id: NIL_ID,
  messageId: NIL_ID,
  slug: "no-such-post",
  orderNumber: "LL-100000",
  sessionId: "test_cs_no_such_session",
  step: "confirm",
  "*": "no-such-page",
};

describe("WCAG 2.2 AA: axe-core finds no violation", () => {
  it("on every page of app/routes.ts with empty lists and an empty cart, at 1280 and 390 px", async () => {
    const found = await checkPages(targetsOf(emptySamples, false));
    expect(found, found.join("\n")).toEqual([]);
  }, 600_000);

  it("on every page with rows in the lists, a paid order and a cart with items, at 1280 and 390 px", async () => {
    const product = await makeProduct(shop.db, { name: "Axe Linen Throw", priceCents: 4200, stockQuantity: 8, featured: true });
    await makeProduct(shop.db, { name: "Axe Wool Pillow", priceCents: 1900, stockQuantity: 0, category: "Pillows" });
    const post = await makePost(shop.db, { title: "Caring for linen", slug: "caring-for-linen" });
    const discount = await makeDiscountCode(shop.db);
    const [message] = await shop.db
      .insert(contactMessages)
      .values({ name: "Casey Visitor", email: "casey@example.test", subject: "Do you ship to Canada?", message: "And how long does it take?" })
      .returning();
    await saveReturnsSetting(shop.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    const paid = await openCheckout(shop.db, [[product, 2]], { userId: customerId });
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${paid.sessionId}` }).where(eq(testPaymentSessions.id, paid.sessionId));
    expect((await confirmPayment(shop.db, paid.sessionId)).state).toBe("paid");
    const order = await orderBySession(shop.db, paid.sessionId);
    const unpaid = await openCheckout(shop.db, [[product, 1]], { userId: customerId });
    const [mail] = await shop.db.select({ id: mailOutbox.id }).from(mailOutbox).limit(1);
    // The admin's customer page takes the customer list's row, not the account's id.
    const [customerRow] = await shop.db.select({ id: customers.id }).from(customers).where(eq(customers.userId, customerId));
    expect(customerRow, "the customer list's row of the customer with the paid order").toBeDefined();

    // The customer's cart holds the throw.
    const customer = pages.customer;
    await customer.goto(`/product/${product.id}`);
    await hydrated(customer, customer.getByRole("button", { name: "Add to Cart" }));
    await customer.getByRole("button", { name: "Add to Cart" }).click();
    await customer.getByText(`${product.name} has been added to your cart.`).first().waitFor();

    const samples: Samples = {
      ...emptySamples,
      slug: post.slug,
      orderNumber: order.orderNumber,
      sessionId: unpaid.sessionId,
      messageId: message!.id,
      "/order-success?": `session_id=${paid.sessionId}`,
    };
    const targets = targetsOf(samples, true).flatMap((t) => {
      // One :id stands for a different row on each page.
      const idFor: [string, string][] = [
        ["/product/", product.id],
        ["/admin/orders/", order.orderNumber],
        ["/admin/outbox/", mail?.id ?? NIL_ID],
        ["/admin/discounts/", discount.id],
        ["/admin/customers/", customerRow!.id],
        ["/admin/blog/", post.id],
      ];
      const id = idFor.find(([prefix]) => t.url.startsWith(prefix) && t.url.includes(NIL_ID))?.[1];
      return [{ ...t, url: id ? t.url.replace(NIL_ID, id) : t.url }];
    });
    const found = await checkPages(targets);
    expect(found, found.join("\n")).toEqual([]);
  }, 600_000);

});
