import { beforeAll, describe, expect, it } from "vitest";
import { makeOrder } from "../factories/account-orders";
import { makePosts } from "../factories/posts";
import { makeProduct } from "../factories/products";
import { createSession, makeCustomer, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";

/**
 * No visitor ever gets another's personal data: two signed-in customers and anonymous visitors
 * ask for every storefront and account page, as HTML and as client-navigation data, in an order
 * that would warm any cache with the wrong person's answer first. Each customer's name, email and
 * order number may appear only in that customer's own answers.
 */
const shop = useShop();

type Visitor = { label: string; cookie: string | null; secrets: string[] };
let visitors: Visitor[] = [];
let paths: string[] = [];

beforeAll(async () => {
  const product = await makeProduct(shop.db, { name: "Plain Linen Sheet", stockQuantity: 5 });
  const [post] = await makePosts(shop.db, 1);
  const make = async (tag: string) => {
    const user = await makeCustomer(shop.db, { firstName: "Zephyrine", lastName: `${tag}quist`, email: `zephyrine.${tag}@example.test` });
    const order = await makeOrder(shop.db, { userId: user.id, email: user.email, firstName: "Zephyrine", lastName: `${tag}quist`, orderNumber: `ORD-20261125-${tag.toUpperCase()}PRIV` });
    const { cookieValue } = await createSession(shop.db, user.id, E2E_AUTH_SECRET);
    return { label: `customer ${tag}`, cookie: `${SESSION_COOKIE}=${cookieValue}`, secrets: [`${tag}quist`, user.email, order.orderNumber] };
  };
  const a = await make("alpha");
  const b = await make("bravo");
  visitors = [a, { label: "anonymous", cookie: null, secrets: [] }, b, { label: "anonymous again", cookie: null, secrets: [] }];
  const pages = ["/", "/shop", "/shop?search=linen", `/product/${product.id}`, "/blog", `/blog/${post!.slug}`, "/cart", "/checkout", "/contact", "/profile", "/profile?tab=orders"];
  const data = (p: string) => {
    const [path, query] = p.split("?");
    return `${path === "/" ? "/_root" : path}.data${query ? `?${query}` : ""}`;
  };
  paths = [...pages, ...pages.map(data)];
});

async function fetchAs(visitor: Visitor, path: string) {
  const res = await fetch(shop.baseUrl + path, { redirect: "manual", headers: visitor.cookie ? { cookie: visitor.cookie } : {} });
  return { status: res.status, cacheControl: res.headers.get("cache-control") ?? "", cache: res.headers.get("x-page-cache"), body: await res.text() };
}

describe("personal data stays with its owner", () => {
  it("no answer, cached or not, HTML or .data, carries another visitor's name, email or orders", async () => {
    const seenOwn = new Map<string, number>();
    /** Signed-in answers served from a rendering kept for every signed-in customer. */
    const sharedWithCustomers = new Set<string>();
    // Twice round: the second round is what the page cache would answer from.
    for (let round = 0; round < 2; round++) {
      for (const visitor of visitors) {
        for (const path of paths) {
          const { status, body, cacheControl, cache } = await fetchAs(visitor, path);
          expect(status, `${visitor.label} ${path}`).toBeLessThan(500);
          for (const other of visitors) {
            if (other === visitor) continue;
            for (const secret of other.secrets) {
              expect(body.includes(secret), `${visitor.label} got ${other.label}'s "${secret}" at ${path}`).toBe(false);
            }
          }
          if (visitor.cookie) {
            expect(cacheControl, `${visitor.label} ${path}: a signed-in answer is never stored`).toContain("no-store");
            if (cache === "hit" || cache === "shared") sharedWithCustomers.add(path);
            for (const secret of visitor.secrets) if (body.includes(secret)) seenOwn.set(secret, (seenOwn.get(secret) ?? 0) + 1);
          }
        }
      }
    }
    // The shared renderings were really exercised: customer bravo got what alpha's visit left.
    expect([...sharedWithCustomers]).toEqual(expect.arrayContaining(["/", "/shop", "/shop.data", "/blog"]));
    // The test sees each customer's own data somewhere (their account's orders), so it would see a leak.
    for (const visitor of visitors.filter((v) => v.cookie)) {
      for (const secret of visitor.secrets) expect(seenOwn.get(secret) ?? 0, `${visitor.label} never saw their own "${secret}"`).toBeGreaterThan(0);
    }
  });
});
