import { RotateCcw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { mergeBuyAgain, type BuyAgainOutcome } from "~/lib/buy-again";
import { cartStore } from "~/lib/cart";
import type { BuyAgainResult } from "~/lib/shopper-order-view";

type Answer = { buyAgain?: BuyAgainResult; error?: string };

/**
 * 'Buy again': the server says which of the order's lines can be bought now (active, in stock, at
 * today's price); those go into this browser's cart, and the shopper is told what was added and
 * what was not, and why.
 */
export function BuyAgain({ token }: { token: string | null }) {
  const fetcher = useFetcher<Answer>();
  const [outcome, setOutcome] = useState<BuyAgainOutcome | null>(null);
  const applied = useRef<BuyAgainResult | null>(null);
  useEffect(() => {
    const result = fetcher.data?.buyAgain;
    if (!result || applied.current === result || fetcher.state !== "idle") return;
    applied.current = result;
    const merged = mergeBuyAgain(cartStore.getItems(), result);
    if (merged.added.length) cartStore.replace(merged.items);
    setOutcome(merged);
  }, [fetcher.data, fetcher.state]);
  const busy = fetcher.state !== "idle";
  return (
    <div className="grid gap-3">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="buy-again" />
        {token ? <input type="hidden" name="t" value={token} /> : null}
        <Button type="submit" disabled={busy}>
          <RotateCcw aria-hidden />
          {busy ? "Checking the shop..." : "Buy again"}
        </Button>
      </fetcher.Form>
      <div role="status" aria-live="polite" className="grid gap-2 text-sm">
        {fetcher.data?.error ? <p className="text-destructive">{fetcher.data.error}</p> : null}
        {outcome ? <BuyAgainSummary outcome={outcome} /> : null}
      </div>
    </div>
  );
}

function BuyAgainSummary({ outcome }: { outcome: BuyAgainOutcome }) {
  return (
    <>
      {outcome.added.length ? (
        <div className="grid gap-1">
          <p className="font-medium">Added to your cart:</p>
          <ul className="grid list-disc gap-1 pl-5" aria-label="Added to your cart">
            {outcome.added.map((a) => (
              <li key={a.name}>
                {a.quantity} × {a.name}
                {a.notes.length ? <span className="text-muted-foreground"> — {a.notes.join(" ")}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="font-medium">Nothing from this order could be added to your cart.</p>
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
      {outcome.added.length ? (
        <Link to="/cart" className="w-fit font-medium text-primary underline underline-offset-4">
          View cart
        </Link>
      ) : null}
    </>
  );
}
