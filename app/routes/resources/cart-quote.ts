import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { MAX_CHECKOUT_LINES } from "~/lib/checkout";
import type { CartReview } from "~/lib/pricing-view";
import { reviewCart, type CartRequestLine } from "~/server/checkout/cart-review.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/cart-quote";

const refuse = (error: string) => Response.json({ error }, { status: 400, headers: { "Cache-Control": "no-store" } });

/**
 * GET /api/cart/quote?lines=<id>:<quantity>,…: the cart's products as the shop sees them now and
 * the quote the cart and checkout pages show (the browser never adds up money itself).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("lines") ?? "";
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
  const { lines: reviewed, quote } = await reviewCart(getDb(), lines);
  const body: CartReview = { lines: reviewed, quote };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}
