import type { AutocannonRequest } from "autocannon";
import { seeded, type Random } from "./random";
import { SEARCH_TERMS } from "./server-times";

/** One kind of page a shopper visits, with its share of browsing requests. */
export type BrowseKind = { kind: string; weight: number; path: (r: Random) => string };

export const LOAD_EMAIL_DOMAIN = "loadtest.example.com";

/**
 * A desktop browser's user agent, numbered per visit: the shop counts visits (and isbot would
 * take a missing or tool user agent for a bot), so each visit is a new visitor to count, as many
 * distinct visitors as the load can make.
 */
const SHOPPER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

export function browseKinds(productIds: string[], slugs: string[], cartIds: string[]): BrowseKind[] {
  const search = [...SEARCH_TERMS.specific, ...SEARCH_TERMS.broad, ...SEARCH_TERMS.typo];
  const categories = ["Bedding", "Furniture", "Decor", "Accessories"];
  const sorts = ["name", "price-low", "price-high", "rating"];
  return [
    { kind: "home", weight: 15, path: () => "/" },
    { kind: "shop", weight: 8, path: (r) => (r.chance(0.7) ? "/shop" : `/shop?page=${r.int(2, 4)}`) },
    { kind: "shop search", weight: 10, path: (r) => `/shop?search=${encodeURIComponent(r.pick(search))}` },
    { kind: "shop filters", weight: 10, path: (r) => `/shop?${new URLSearchParams({ category: r.pick(categories), ...(r.chance(0.5) ? { sort: r.pick(sorts) } : {}) })}` },
    { kind: "product", weight: 25, path: (r) => `/product/${r.pick(productIds)}` },
    { kind: "blog", weight: 4, path: () => "/blog" },
    { kind: "blog post", weight: 6, path: (r) => `/blog/${r.pick(slugs)}` },
    { kind: "cart quote", weight: 8, path: (r) => `/api/cart/quote?lines=${r.sample(cartIds, r.int(1, 3)).map((id) => `${id}:${r.int(1, 3)}`).join(",")}` },
  ];
}

/**
 * `count` page URLs drawn from the browsing mix without its cart refreshes (the pages an anonymous
 * visitor views), the same for the same seed: the costs and Varnish parts measure these.
 */
export function anonymousPagePaths(productIds: string[], slugs: string[], count: number, seed: number): string[] {
  const kinds = browseKinds(productIds.slice(0, 100), slugs.slice(0, 50), []).filter((k) => k.kind !== "cart quote");
  const total = kinds.reduce((s, k) => s + k.weight, 0);
  const r = seeded(seed);
  return Array.from({ length: count }, () => {
    let x = r.next() * total;
    return (kinds.find((k) => (x -= k.weight) < 0) ?? kinds[0]!).path(r);
  });
}

export type FlowStats = {
  byKind: Record<string, Record<string, number>>;
  /** Every checkout sent (its key, which is also in the shopper's email), answered or not. */
  sent: Set<string>;
  created: Set<string>;
  reportedPaid: Set<string>;
  failures: Record<string, number>;
};

export const newFlowStats = (): FlowStats => ({ byKind: {}, sent: new Set(), created: new Set(), reportedPaid: new Set(), failures: {} });

function count(stats: FlowStats, kind: string, status: number) {
  const k = (stats.byKind[kind] ??= {});
  k[status] = (k[status] ?? 0) + 1;
}

/** The email of checkout `n`: the audit finds each order's checkout by it. */
export const shopperEmail = (n: string) => `shopper-${n}@${LOAD_EMAIL_DOMAIN}`;

const checkoutBody = (r: Random, n: string, pool: string[]) =>
  JSON.stringify({
    cartItems: r.sample(pool, r.int(1, 2)).map((id) => ({ id, quantity: r.int(1, 2) })),
    formData: {
      firstName: "Load",
      lastName: "Tester",
      email: shopperEmail(n),
      phone: "",
      address: "1 Bench Street",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
    },
    idempotencyKey: `bench-${n}`,
  });

const expiry = () => `12 / ${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`;

/**
 * The shopper script every autocannon connection loops through: seven page views, then — for
 * `checkoutShare` of the visits — create a checkout, pay on the test provider's page with
 * 4242 4242 4242 4242, and verify the payment as the result page does. Visits that do not buy
 * make three more page views instead, so every visit is ten requests.
 */
export function shopperScript(opts: {
  kinds: BrowseKind[];
  checkoutPool: string[] | null;
  checkoutShare: number;
  stats: FlowStats;
  seed: number;
}): AutocannonRequest[] {
  const r = seeded(opts.seed);
  const total = opts.kinds.reduce((s, k) => s + k.weight, 0);
  let serial = 0;
  let visits = 0;
  // autocannon gives each connection a fresh context at the start of each pass (one visit).
  const agent = (ctx: Record<string, unknown>) => (ctx.agent ??= `${SHOPPER_AGENT} shopper/${opts.seed}-${++visits}`) as string;
  const browse = (req: AutocannonRequest, ctx: Record<string, unknown>): AutocannonRequest => {
    let x = r.next() * total;
    let kind = opts.kinds[0]!;
    for (const k of opts.kinds) {
      if ((x -= k.weight) < 0) {
        kind = k;
        break;
      }
    }
    ctx.kind = kind.kind;
    return { ...req, method: "GET", path: kind.path(r), body: undefined, headers: { "accept-encoding": "gzip", "user-agent": agent(ctx) } };
  };
  const record = (_status: number, _body: string, ctx: Record<string, unknown>) => count(opts.stats, String(ctx.kind), _status);
  // A fresh object per position: autocannon keeps each step's built request on the object.
  const browseStep = (): AutocannonRequest => ({ setupRequest: browse, onResponse: record });
  const fail = (what: string) => (opts.stats.failures[what] = (opts.stats.failures[what] ?? 0) + 1);

  const createStep: AutocannonRequest = {
    setupRequest: (req, ctx) => {
      if (!opts.checkoutPool || !r.chance(opts.checkoutShare)) {
        ctx.flow = null;
        return browse(req, ctx);
      }
      ctx.kind = "checkout";
      ctx.flow = { n: `${opts.seed}-${++serial}-${Date.now().toString(36)}` };
      const n = (ctx.flow as { n: string }).n;
      opts.stats.sent.add(n);
      return { ...req, method: "POST", path: "/api/checkout", headers: { "content-type": "application/json", "user-agent": agent(ctx) }, body: checkoutBody(r, n, opts.checkoutPool) };
    },
    onResponse: (status, body, ctx) => {
      record(status, body, ctx);
      const flow = ctx.flow as { sessionId?: string; orderNumber?: string } | null;
      if (!flow) return;
      try {
        const answer = JSON.parse(body) as { url?: string; orderNumber?: string };
        const m = /\/pay\/test\/([^/?#]+)/.exec(answer.url ?? "");
        if (status === 200 && m && answer.orderNumber) {
          flow.sessionId = decodeURIComponent(m[1]!);
          flow.orderNumber = answer.orderNumber;
          opts.stats.created.add(answer.orderNumber);
          return;
        }
      } catch {
        /* counted below */
      }
      fail(`create checkout answered ${status}`);
    },
  };

  const payStep: AutocannonRequest = {
    setupRequest: (req, ctx) => {
      const flow = ctx.flow as { sessionId?: string } | null;
      if (!flow?.sessionId) return browse(req, ctx);
      ctx.kind = "pay";
      const form = new URLSearchParams({ cardNumber: "4242 4242 4242 4242", expiry: expiry(), cvc: "123" });
      return { ...req, method: "POST", path: `/pay/test/${encodeURIComponent(flow.sessionId)}`, headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": agent(ctx) }, body: form.toString() };
    },
    onResponse: (status, body, ctx) => {
      record(status, body, ctx);
      const flow = ctx.flow as { sessionId?: string; paid?: boolean } | null;
      if (ctx.kind !== "pay" || !flow) return;
      // The payment form redirects to the result page once the order is settled.
      if (status === 302 || status === 303) flow.paid = true;
      else fail(`payment form answered ${status}`);
    },
  };

  const verifyStep: AutocannonRequest = {
    setupRequest: (req, ctx) => {
      const flow = ctx.flow as { sessionId?: string; paid?: boolean } | null;
      if (!flow?.paid) return browse(req, ctx);
      ctx.kind = "verify";
      return { ...req, method: "POST", path: "/api/verify-payment", headers: { "content-type": "application/json", "user-agent": agent(ctx) }, body: JSON.stringify({ session_id: flow.sessionId }) };
    },
    onResponse: (status, body, ctx) => {
      record(status, body, ctx);
      const flow = ctx.flow as { orderNumber?: string; paid?: boolean } | null;
      if (ctx.kind !== "verify" || !flow?.orderNumber) return;
      try {
        const answer = JSON.parse(body) as { payment_successful?: boolean; order_number?: string };
        if (status === 200 && answer.payment_successful && answer.order_number === flow.orderNumber) {
          opts.stats.reportedPaid.add(flow.orderNumber);
          return;
        }
      } catch {
        /* counted below */
      }
      fail(`verify answered ${status}`);
    },
  };

  return [...Array.from({ length: 7 }, browseStep), createStep, payStep, verifyStep];
}
