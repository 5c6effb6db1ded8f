import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/lean/card";
import { Separator } from "~/components/ui/lean/separator";
import type { CartItem } from "~/lib/cart";
import { formatMoney } from "~/lib/money";

type Props = {
  subtotalCents: number;
  /** The checkout lists the lines and shows tax; the cart does not. */
  lines?: CartItem[];
  showTax?: boolean;
  children?: ReactNode;
};

/** The order summary (SPEC §2 Cart and Checkout): shipping is always Free and tax $0.00 (§9). */
export function CartSummary({ subtotalCents, lines, showTax = false, children }: Props) {
  return (
    <section aria-labelledby="order-summary-title">
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id="order-summary-title" className="text-lg">
            Order Summary
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 text-sm">
        {lines?.length ? (
          <>
            <ul className="grid grid-cols-1 gap-2">
              {lines.map((l) => (
                <li key={l.id} className="flex justify-between gap-4">
                  <span className="min-w-0 truncate">
                    {l.name} <span className="text-muted-foreground">× {l.quantity}</span>
                  </span>
                  <span>{formatMoney(l.priceCents * l.quantity)}</span>
                </li>
              ))}
            </ul>
            <Separator />
          </>
        ) : null}
        <dl className="grid grid-cols-1 gap-2">
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Subtotal</dt>
            <dd>{formatMoney(subtotalCents)}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Shipping</dt>
            <dd>Free</dd>
          </div>
          {showTax ? (
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Tax</dt>
              <dd>{formatMoney(0)}</dd>
            </div>
          ) : null}
          <Separator className="my-1" />
          <div className="flex justify-between text-base font-semibold">
            <dt>Total</dt>
            <dd data-testid="order-total">{formatMoney(subtotalCents)}</dd>
          </div>
        </dl>
        {children ? <div className="mt-2 grid gap-2">{children}</div> : null}
      </CardContent>
    </Card>
    </section>
  );
}
