import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/lean/card";
import { Separator } from "~/components/ui/lean/separator";
import { Skeleton } from "~/components/ui/lean/skeleton";
import { formatMoney } from "~/lib/money";
import { taxLabel, type Quote } from "~/lib/pricing-view";

type Props = {
  /** The server's quote for the cart as it is now; null while it is being asked for. */
  quote: Quote | null;
  /** The quote could not be had (offline, the shop briefly down). */
  failed?: boolean;
  /** The checkout lists the lines and shows tax; the cart does not. */
  showLines?: boolean;
  showTax?: boolean;
  children?: ReactNode;
};

function Amount({ cents, testId }: { cents: number | undefined; testId?: string }) {
  if (cents === undefined) {
    return (
      <dd data-testid={testId}>
        <Skeleton className="h-4 w-16" />
      </dd>
    );
  }
  return <dd data-testid={testId}>{formatMoney(cents)}</dd>;
}

/**
 * The order summary (docs/rules/cart-and-checkout.md): every figure is the server's quote, printed
 * as it came. On a fresh shop shipping is 'Free' and tax $0.00.
 */
export function CartSummary({ quote, failed = false, showLines = false, showTax = false, children }: Props) {
  const loading = !quote;
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
        <CardContent className="grid grid-cols-1 gap-3 text-sm" aria-busy={loading}>
          {showLines && quote?.lines.length ? (
            <>
              <ul className="grid grid-cols-1 gap-2">
                {quote.lines.map((l) => (
                  <li key={l.productId} className="flex justify-between gap-4">
                    <span className="min-w-0 truncate">
                      {l.name} <span className="text-muted-foreground">× {l.quantity}</span>
                    </span>
                    <span>{formatMoney(l.lineTotalCents)}</span>
                  </li>
                ))}
              </ul>
              <Separator />
            </>
          ) : null}
          <dl className="grid grid-cols-1 gap-2">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Subtotal</dt>
              <Amount cents={quote?.subtotalCents} />
            </div>
            {quote?.discount ? (
              <div className="flex justify-between">
                <dt className="text-muted-foreground">Discount ({quote.discount.code})</dt>
                <dd>{quote.discount.freeShipping ? "Free shipping" : formatMoney(-quote.discount.amountCents)}</dd>
              </div>
            ) : null}
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Shipping</dt>
              {quote ? <dd>{quote.shipping.amountCents === 0 ? "Free" : formatMoney(quote.shipping.amountCents)}</dd> : <Amount cents={undefined} />}
            </div>
            {showTax ? (
              <div className="flex justify-between">
                <dt className="text-muted-foreground">{quote ? taxLabel(quote.tax) : "Tax"}</dt>
                <Amount cents={quote?.tax.amountCents} />
              </div>
            ) : null}
            <Separator className="my-1" />
            <div className="flex justify-between text-base font-semibold">
              <dt>Total</dt>
              <Amount cents={quote?.totalCents} testId="order-total" />
            </div>
          </dl>
          {failed && loading ? (
            <p className="text-sm text-muted-foreground" role="status">
              The total could not be loaded just now. It is checked again when you place the order.
            </p>
          ) : null}
          {children ? <div className="mt-2 grid gap-2">{children}</div> : null}
        </CardContent>
      </Card>
    </section>
  );
}
