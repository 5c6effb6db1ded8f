import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/lean/card";
import { Separator } from "~/components/ui/lean/separator";
import { Skeleton } from "~/components/ui/lean/skeleton";
import { formatMoney } from "~/lib/money";
import { MINUS } from "~/lib/order-money";
import { taxLabel, type Quote, type ShippingReview } from "~/lib/pricing-view";

type Props = {
  /** The server's quote for the cart as it is now; null while it is being asked for. */
  quote: Quote | null;
  /**
   * The last quote answered, for an earlier cart or address. While `quote` loads, its rows (lines,
   * discount) are drawn with their figures as placeholders: the summary keeps its height, and the
   * button under it stays where the shopper is about to click. None of its figures is shown.
   */
  lastQuote?: Quote | null;
  /** Whether shipping is priced, waits for an address, or cannot reach it. */
  shipping?: ShippingReview | null;
  /** Tax depends on an address not given yet. */
  taxPending?: boolean;
  /** The quote could not be had (offline, the shop briefly down). */
  failed?: boolean;
  /** The checkout lists the lines and shows tax; the cart does not. */
  showLines?: boolean;
  showTax?: boolean;
  /** Between the figures and the total (the discount code field). */
  beforeTotal?: ReactNode;
  children?: ReactNode;
};

function Amount({ cents, testId }: { cents: number | undefined; testId?: string }) {
  return (
    <dd data-testid={testId}>{cents === undefined ? <Skeleton className="h-4 w-16" /> : formatMoney(cents)}</dd>
  );
}

const LATER = "Calculated at checkout";

/**
 * The order summary (docs/rules/cart-and-checkout.md): every figure is the server's quote, printed
 * as it came. On a fresh shop shipping is 'Free' and tax $0.00.
 */
export function CartSummary({ quote, lastQuote = null, shipping = null, taxPending = false, failed = false, showLines = false, showTax = false, beforeTotal, children }: Props) {
  const loading = !quote;
  // Which rows to draw: the quote's, or while it loads the last one's.
  const rows = quote ?? lastQuote;
  const shippingLater = shipping?.state === "needs_address";
  const noShipping = shipping?.state === "unavailable";
  const estimated = shippingLater || (showTax && taxPending) || noShipping;
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
          {showLines && rows?.lines.length ? (
            <>
              <ul className="grid grid-cols-1 gap-2">
                {rows.lines.map((l) =>
                  quote ? (
                    <li key={l.productId} className="flex justify-between gap-4">
                      <span className="min-w-0 truncate">
                        {l.name} <span className="text-muted-foreground">× {l.quantity}</span>
                      </span>
                      <span>{formatMoney(l.lineTotalCents)}</span>
                    </li>
                  ) : (
                    // A line of text's height (text-sm: 1.25rem), so the list keeps its size.
                    <li key={l.productId} className="flex justify-between gap-4" aria-hidden>
                      <Skeleton className="h-5 w-40" />
                      <Skeleton className="h-5 w-16" />
                    </li>
                  ),
                )}
              </ul>
              <Separator />
            </>
          ) : null}
          <dl className="grid grid-cols-1 gap-2">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Subtotal</dt>
              <Amount cents={quote?.subtotalCents} testId="order-subtotal" />
            </div>
            {quote?.discount ? (
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Discount ({quote.discount.code})</dt>
                <dd data-testid="order-discount">{quote.discount.freeShipping ? "Free shipping" : `${MINUS}${formatMoney(quote.discount.amountCents)}`}</dd>
              </div>
            ) : !quote && rows?.discount ? (
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Discount</dt>
                <Amount cents={undefined} />
              </div>
            ) : null}
            <div className="flex justify-between gap-4">
              <dt className="text-muted-foreground">Shipping</dt>
              {loading ? (
                <Amount cents={undefined} />
              ) : shippingLater ? (
                <dd className="text-muted-foreground">{LATER}</dd>
              ) : noShipping ? (
                <dd className="text-muted-foreground">—</dd>
              ) : (
                <dd data-testid="order-shipping">{quote.shipping.amountCents === 0 ? "Free" : formatMoney(quote.shipping.amountCents)}</dd>
              )}
            </div>
            {showTax ? (
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">{quote && !taxPending ? taxLabel(quote.tax) : "Tax"}</dt>
                {quote && taxPending ? <dd className="text-muted-foreground">{LATER}</dd> : <Amount cents={quote?.tax.amountCents} testId="order-tax" />}
              </div>
            ) : null}
          </dl>
          {beforeTotal ? <div className="py-1">{beforeTotal}</div> : null}
          <Separator className="my-1" />
          <dl>
            <div className="flex justify-between text-base font-semibold">
              <dt>{estimated ? "Estimated total" : "Total"}</dt>
              <Amount cents={quote?.totalCents} testId="order-total" />
            </div>
          </dl>
          {noShipping ? (
            <p className="text-sm text-destructive" role="alert">
              {shipping.message}
            </p>
          ) : null}
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
