import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { mergeCartLines } from "~/lib/cart-lines";
import { MAX_CHECKOUT_LINES } from "~/lib/checkout";
import type { CartReview } from "~/lib/pricing-view";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { type CartRequestLine, limitCodeLookup, reviewCart } from "~/server/commerce/index.server";
import { clientIp, getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/cart-quote";

const refuse = (error: string) => jsonResponse({ kind: "bad_input" }, { error }, { "Cache-Control": "no-store" });

/** A query value, or null when absent, empty or longer than `max`. */
const param = (params: URLSearchParams, name: string, max: number) => {
  const v = params.get(name)?.trim();
  return v && v.length <= max ? v : null;
};

/**
 * GET /api/cart/quote?lines=<id>:<quantity>,…[&country=US&state=IL&zip=62701][&code=WELCOME10]
 * [&rate=<rate id>]: the cart's products as the shop sees them now and the quote the
 * cart and checkout pages show (the browser never adds up money itself). Without a country,
 * shipping and tax that depend on the address are left for the checkout. An `email` parameter
 * is ignored: whether an address has used a once-per-email code is only the checkout's word.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const raw = params.get("lines") ?? "";
  const parts = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length > MAX_CHECKOUT_LINES) return refuse(`At most ${MAX_CHECKOUT_LINES} products at a time.`);
  const lines: CartRequestLine[] = [];
  for (const part of parts) {
    const at = part.lastIndexOf(":");
    const id = at < 0 ? part : part.slice(0, at);
    const quantity = at < 0 ? 1 : Number(part.slice(at + 1));
    if (id.length > 100) return refuse("A product id is too long.");
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
      return refuse(`Quantities must be whole numbers from 1 to ${MAX_LINE_QUANTITY}.`);
    }
    lines.push({ id, quantity });
  }
  // One product's lines (its id in any letter case) are one line: the sum must fit a line too.
  if (mergeCartLines(lines).some((l) => l.quantity > MAX_LINE_QUANTITY)) {
    return refuse(`Quantities must be whole numbers from 1 to ${MAX_LINE_QUANTITY}.`);
  }
  const country = param(params, "country", 2);
  const db = getDb();
  // An over-long code is still a code the shopper typed: it is answered 'This code is not valid.'
  const code = params.get("code")?.slice(0, 500) ?? null;
  // One client's guesses are limited; past the limit no code is looked up for it (the cart is still priced).
  const lookup = code?.trim() ? await limitCodeLookup(db, code, { ip: clientIp(request) }) : { ok: true as const };
  const review = await reviewCart(db, lines, {
    destination: country && /^[A-Za-z]{2}$/.test(country) ? { country, state: param(params, "state", 100) ?? "", zipCode: param(params, "zip", 20) ?? "" } : null,
    code: lookup.ok ? code : null,
    rateId: param(params, "rate", 100),
    // `email` is not passed on: the quote never tells whether an address has used a code.
  });
  const body: CartReview = {
    lines: review.lines,
    quote: review.quote,
    shipping: review.shipping,
    taxPending: review.taxPending,
    discount: lookup.ok ? review.discount : { code: code!.trim().slice(0, 64), applied: false, message: lookup.message },
  };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}
