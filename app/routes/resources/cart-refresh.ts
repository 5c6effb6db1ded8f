import { MAX_CHECKOUT_LINES } from "~/lib/checkout";
import { refreshCartLines } from "~/server/checkout/cart-refresh.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/cart-refresh";

/** GET /api/cart/refresh?ids=a,b,c: the cart's products as the shop sees them now. */
export async function loader({ request }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("ids") ?? "";
  const ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (ids.length > MAX_CHECKOUT_LINES) {
    return Response.json({ error: `At most ${MAX_CHECKOUT_LINES} products at a time.` }, { status: 400 });
  }
  if (ids.some((id) => id.length > 100)) return Response.json({ error: "A product id is too long." }, { status: 400 });
  const lines = await refreshCartLines(getDb(), ids);
  return Response.json({ lines }, { headers: { "Cache-Control": "no-store" } });
}
