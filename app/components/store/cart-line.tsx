import { Minus } from "~/components/ui/lean/icons/minus";
import { Plus } from "~/components/ui/lean/icons/plus";
import { Trash2 } from "~/components/ui/lean/icons/trash-2";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/lean/badge";
import { Button } from "~/components/ui/lean/button";
import { Input } from "~/components/ui/lean/input";
import { Skeleton } from "~/components/ui/lean/skeleton";
import { cartStore, type CartItem } from "~/lib/cart";
import { FALLBACK_PRODUCT_IMAGE } from "~/lib/product";
import { formatMoney } from "~/lib/money";
import { clsx } from "~/components/ui/lean/clsx";
import { maxQuantity, type LineFlag } from "./cart-quote";

type Props = { item: CartItem; flag?: LineFlag };

/**
 * One cart line (docs/rules/cart-and-checkout.md, Cart page): quantity as a number input (minimum 0) with −/+ and a remove
 * control. A typed value is applied on Enter or when the field loses focus, so clearing the field
 * to type a new number does not drop the line; 0, less or a non-number removes it (docs/rules/cart-and-checkout.md, The cart).
 */
export function CartLine({ item, flag }: Props) {
  const [draft, setDraft] = useState(String(item.quantity));
  useEffect(() => setDraft(String(item.quantity)), [item.quantity]);
  const max = maxQuantity(flag);
  const unavailable = Boolean(flag?.unavailable);
  const shortOf = unavailable ? undefined : flag?.shortOf;
  const lineTotal = flag?.lineTotalCents;

  const commit = (value: string) => {
    const n = Number.parseInt(value, 10);
    if (Number.isFinite(n) && n > max && max > 0) {
      cartStore.updateQuantity(item.id, max);
      setDraft(String(max));
    } else {
      cartStore.updateQuantity(item.id, value);
    }
  };

  return (
    <li className={clsx("flex gap-4 py-5", unavailable && "opacity-70")}>
      <img
        src={item.imageUrl || FALLBACK_PRODUCT_IMAGE}
        alt=""
        width={96}
        height={96}
        className="size-20 shrink-0 rounded-md border bg-muted object-cover sm:size-24"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <Link to={`/product/${item.id}`} className="font-medium hover:underline">
              {item.name}
            </Link>
            <p className="text-sm text-muted-foreground">
              {flag?.priceChangedFrom !== undefined ? (
                <>
                  <s className="mr-1">{formatMoney(flag.priceChangedFrom)}</s>
                  <span className="font-medium text-foreground">{formatMoney(item.priceCents)}</span> each
                </>
              ) : (
                <>{formatMoney(item.priceCents)} each</>
              )}
            </p>
          </div>
          {lineTotal === undefined ? (
            <Skeleton className="h-5 w-16" role="status" aria-label="Line total loading" />
          ) : (
            <p className="font-semibold" aria-label={`Line total ${formatMoney(lineTotal)}`}>
              {formatMoney(lineTotal)}
            </p>
          )}
        </div>

        <div className="flex flex-wrap gap-2" aria-live="polite">
          {unavailable ? <Badge variant="destructive">No longer available</Badge> : null}
          {flag?.priceChangedFrom !== undefined ? (
            <Badge variant="info">
              Price changed from {formatMoney(flag.priceChangedFrom)} to {formatMoney(item.priceCents)}
            </Badge>
          ) : null}
          {shortOf !== undefined ? <Badge variant="warning">{shortOf <= 0 ? "Out of stock" : `Only ${shortOf} left in stock`}</Badge> : null}
        </div>

        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-1" role="group" aria-label={`Quantity of ${item.name}`}>
            <Button
              type="button"
              variant="outline"
              size="icon-sm"
              aria-label={`Decrease quantity of ${item.name}`}
              onClick={() => cartStore.updateQuantity(item.id, item.quantity - 1)}
            >
              <Minus aria-hidden />
            </Button>
            {/* The input fills its box (lean inputs take no width override). */}
            <div className="w-16">
              <Input
                inputSize="sm"
                type="number"
                inputMode="numeric"
                min={0}
                max={max || undefined}
                step={1}
                value={draft}
                aria-label={`Quantity of ${item.name}`}
                className="text-center"
                onChange={(e) => setDraft(e.target.value)}
                onBlur={(e) => commit(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") commit(e.currentTarget.value);
                }}
              />
            </div>
            <Button
              type="button"
              variant="outline"
              size="icon-sm"
              aria-label={`Increase quantity of ${item.name}`}
              disabled={unavailable || item.quantity >= max}
              onClick={() => cartStore.updateQuantity(item.id, item.quantity + 1)}
            >
              <Plus aria-hidden />
            </Button>
          </div>
          <Button
            type="button"
            variant={null}
            size="sm"
            className="text-muted-foreground hover:bg-accent hover:text-destructive focus-visible:ring-ring/50 dark:hover:bg-accent/50"
            onClick={() => cartStore.remove(item.id)}
            aria-label={`Remove ${item.name}`}
          >
            <Trash2 aria-hidden />
            Remove
          </Button>
        </div>
      </div>
    </li>
  );
}
