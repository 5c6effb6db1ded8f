import { AlertTriangle, CheckCircle2, Loader2, XCircle } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import type { PaymentVerification } from "~/lib/checkout";
import { formatMoney } from "~/lib/money";

export type ResultState =
  | { phase: "verifying" }
  | { phase: "success"; verification: PaymentVerification }
  | { phase: "failed"; message?: string }
  | { phase: "error"; message: string };

function Buttons({ tryAgain = false, continueShopping = true }: { tryAgain?: boolean; continueShopping?: boolean }) {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      {tryAgain ? (
        <Button asChild>
          <Link to="/cart">Try Again</Link>
        </Button>
      ) : null}
      {continueShopping ? (
        <Button asChild variant={tryAgain ? "outline" : "default"}>
          <Link to="/shop">Continue Shopping</Link>
        </Button>
      ) : null}
      <Button asChild variant="outline">
        <Link to="/">Return Home</Link>
      </Button>
    </div>
  );
}

/** The payment result page and its messages (docs/rules/cart-and-checkout.md). */
export function CheckoutResult({ state }: { state: ResultState }) {
  if (state.phase === "verifying") {
    return (
      <div className="flex flex-col items-center gap-4 text-center" role="status" aria-live="polite">
        <Loader2 className="size-12 animate-spin text-primary" aria-hidden />
        <h1 className="text-2xl font-semibold">Verifying your payment...</h1>
      </div>
    );
  }
  if (state.phase === "success") {
    const v = state.verification;
    return (
      <div className="flex flex-col items-center text-center" role="status" aria-live="polite">
        <CheckCircle2 className="size-16 text-success" aria-hidden />
        <h1 className="mt-4 text-3xl font-bold">Order Confirmed!</h1>
        <p className="mt-2 text-muted-foreground">Thank you for your purchase.</p>
        {/* A $0.00 order (a 100 % code) is complete without a payment page. */}
        {v.total_amount_cents === 0 ? <p className="mt-2 font-medium">No payment needed</p> : null}
        <dl className="mt-8 grid w-full max-w-sm gap-3 rounded-lg border p-5 text-left">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Order number</dt>
            <dd className="font-mono font-medium">{v.order_number}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Total</dt>
            <dd className="font-medium">{formatMoney(v.total_amount_cents)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Email</dt>
            <dd className="truncate font-medium">{v.customer_email}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm text-muted-foreground">A confirmation email is on its way to {v.customer_email}.</p>
        <Buttons />
      </div>
    );
  }
  if (state.phase === "failed") {
    return (
      <div className="flex flex-col items-center text-center" role="alert">
        <XCircle className="size-16 text-destructive" aria-hidden />
        <h1 className="mt-4 text-3xl font-bold">Payment Failed</h1>
        <p className="mt-2 text-muted-foreground">Your payment could not be processed. Please try again or contact support.</p>
        {state.message ? <p className="mt-4 font-medium">{state.message}</p> : null}
        <Buttons tryAgain continueShopping={false} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center text-center" role="alert">
      <AlertTriangle className="size-16 text-warning" aria-hidden />
      <h1 className="mt-4 text-3xl font-bold">Payment Error</h1>
      <p className="mt-2 text-muted-foreground">{state.message}</p>
      <Buttons />
    </div>
  );
}
