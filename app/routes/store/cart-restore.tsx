import { useEffect, useRef, useState } from "react";
import { data, Link, useNavigate } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/lean/card";
import { BAD_RESTORE_LINK_MESSAGE } from "~/lib/abandoned-checkout";
import { cartStore } from "~/lib/cart";
import { restoreCart, type RestoreOutcome } from "~/lib/cart-restore";
import { brandFrom } from "~/lib/seo";
import { respond } from "~/routes/_edge/errors.server";
import { getDb } from "~/server/platform/http/index.server";
import { restorableCart } from "~/server/commerce/index.server";
import type { Route } from "./+types/cart-restore";

/**
 * /cart/restore?o=<order number>&t=<token>: the reminder mail's "Return to your cart"
 * (docs/rules/after-sale.md, The abandoned-checkout reminder). The server says which of the
 * checkout's lines can be bought now; the page puts them in this browser's cart and shows the cart,
 * or first says what changed or could not go back. A bad link gets its message, never an error page.
 */
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const result = await restorableCart(getDb(), url.searchParams.get("o"), url.searchParams.get("t"));
  if (!result) return respond({ kind: "not_found" }, { ok: false as const }, PRIVATE);
  return data({ ok: true as const, result }, { headers: PRIVATE });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Your cart — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
  // The link carries its token: no Referer leaves the site.
  { name: "referrer", content: "same-origin" },
];

export default function CartRestorePage({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<RestoreOutcome | null>(null);
  const applied = useRef(false);
  useEffect(() => {
    if (!loaderData.ok || applied.current) return;
    applied.current = true;
    const restored = restoreCart(cartStore.getItems(), loaderData.result);
    if (restored.inCart.length) cartStore.replace(restored.items);
    // Nothing to tell: straight to the cart. Otherwise the shopper reads what changed first.
    if (restored.inCart.length && !restored.skipped.length && restored.inCart.every((l) => l.notes.length === 0)) {
      navigate("/cart", { replace: true });
      return;
    }
    setOutcome(restored);
  }, [loaderData, navigate]);

  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">{loaderData.ok ? "Your cart" : "This link does not work"}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {!loaderData.ok ? (
            <p role="alert">{BAD_RESTORE_LINK_MESSAGE}</p>
          ) : outcome ? (
            <RestoreSummary outcome={outcome} />
          ) : (
            <p role="status">Putting your items back in your cart…</p>
          )}
          <Link to={loaderData.ok ? "/cart" : "/shop"} className="text-sm underline">
            {loaderData.ok ? "View your cart" : "Browse the shop"}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

function RestoreSummary({ outcome }: { outcome: RestoreOutcome }) {
  return (
    <div role="status" className="grid gap-3 text-sm">
      {outcome.inCart.length ? (
        <div className="grid gap-1">
          <p className="font-medium">In your cart:</p>
          <ul className="grid list-disc gap-1 pl-5" aria-label="In your cart">
            {outcome.inCart.map((l) => (
              <li key={l.name}>
                {l.quantity} × {l.name}
                {l.notes.length ? <span className="text-muted-foreground"> — {l.notes.join(" ")}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="font-medium">None of these items can be bought now.</p>
      )}
      {outcome.skipped.length ? (
        <div className="grid gap-1">
          <p className="font-medium">Not added:</p>
          <ul className="grid list-disc gap-1 pl-5" aria-label="Not added to your cart">
            {outcome.skipped.map((s, i) => (
              <li key={`${s.name}-${i}`}>{s.reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {outcome.inCart.length ? (
        <Button asChild className="w-fit">
          <Link to="/checkout">Go to checkout</Link>
        </Button>
      ) : null}
    </div>
  );
}
