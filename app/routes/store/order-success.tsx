import { useEffect, useState } from "react";
import { brandFrom } from "~/lib/seo";
import { useSearchParams } from "react-router";
import { toast } from "~/lib/toast";
import { CheckoutResult, type ResultState } from "~/components/store/checkout-result";
import { dropStashedCart, restoreStashedCart } from "~/lib/cart";
import type { PaymentVerification } from "~/lib/checkout";
import { paymentVerification } from "~/routes/_edge/checkout.server";
import { confirmPayment } from "~/server/commerce/index.server";
import { checkRateLimits, clientIp, getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/order-success";

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Payment result | ${brand}` },
    { name: "description", content: `The result of your ${brand} payment.` },
    { name: "robots", content: "noindex" },
  ];
};

const VERIFY_FAILED = "There was an issue verifying your payment.";

/**
 * What the server found when the page was asked for (docs/rules/cart-and-checkout.md, Payment
 * result page): the payment confirmed as /api/verify-payment does it (idempotent, under the
 * same rate limit), so the result shows without any script. `pending` leaves the asking to the page.
 */
type ServerResult =
  | { phase: "verified"; verification: PaymentVerification }
  | { phase: "pending" }
  | { phase: "no_session" }
  | { phase: "unverified" };

export async function loader({ request }: Route.LoaderArgs): Promise<{ result: ServerResult }> {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (!sessionId) return { result: { phase: "no_session" } };
  if (sessionId.length > 300) return { result: { phase: "unverified" } };
  const db = getDb();
  try {
    const limit = await checkRateLimits(db, [{ key: `verify-payment:ip:${clientIp(request)}`, limit: 60, windowMs: 5 * 60_000 }]);
    if (!limit.ok) return { result: { phase: "unverified" } };
    const outcome = await confirmPayment(db, sessionId);
    if (outcome.state === "not_found" || outcome.state === "error") return { result: { phase: "unverified" } };
    if (outcome.state === "pending") return { result: { phase: "pending" } };
    return { result: { phase: "verified", verification: paymentVerification(outcome) } };
  } catch (err) {
    logger.error({ err: (err as Error).message }, "payment result: the payment could not be verified");
    return { result: { phase: "unverified" } };
  }
}

/** The page's state for what the server found; `pending` is still being verified. */
function stateOf(result: ServerResult): ResultState {
  switch (result.phase) {
    case "verified":
      return result.verification.payment_successful
        ? { phase: "success", verification: result.verification }
        : { phase: "failed", message: result.verification.message };
    case "pending":
      return { phase: "verifying" };
    case "no_session":
      return { phase: "error", message: "No session ID found" };
    case "unverified":
      return { phase: "error", message: VERIFY_FAILED };
  }
}

// Card payments settle before the redirect; a slow webhook or bank gets a few more seconds.
const PENDING_RETRIES = 8;
const RETRY_MS = 1500;

/** The payment result page (docs/rules/cart-and-checkout.md): verifying, then success, failure or error. */
export default function OrderSuccessPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const result = loaderData?.result ?? { phase: "pending" };
  const [state, setState] = useState<ResultState>(() => stateOf(result));

  useEffect(() => {
    if (!sessionId) {
      setState({ phase: "error", message: "No session ID found" });
      toast.error("Error", { description: "No session ID found" });
      return;
    }
    // The server already has the answer: the browser only finishes it (the cart it kept, the toast).
    if (result.phase === "verified") {
      const body = result.verification;
      setState(stateOf(result));
      if (body.payment_successful) {
        dropStashedCart();
        toast.success("Payment Successful!", { description: `Order ${body.order_number} has been confirmed.` });
      } else {
        restoreStashedCart();
      }
      return;
    }
    if (result.phase === "unverified") {
      setState({ phase: "error", message: VERIFY_FAILED });
      toast.error("Failed to verify payment");
      return;
    }
    let cancelled = false;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function verify() {
      try {
        const res = await fetch("/api/verify-payment", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ session_id: sessionId }),
        });
        const body = (await res.json().catch(() => null)) as PaymentVerification | null;
        if (cancelled) return;
        if (!res.ok || !body) throw new Error(`verify-payment answered ${res.status}`);
        if (body.status === "pending" && attempts++ < PENDING_RETRIES) {
          timer = setTimeout(verify, RETRY_MS);
          return;
        }
        if (body.payment_successful) {
          // The cart was cleared before paying; anything in it now was added since, so it stays.
          dropStashedCart();
          setState({ phase: "success", verification: body });
          toast.success("Payment Successful!", { description: `Order ${body.order_number} has been confirmed.` });
        } else if (body.status === "pending") {
          setState({ phase: "error", message: VERIFY_FAILED });
        } else {
          // 'Try Again' leads to the cart: give back the cart the checkout cleared.
          restoreStashedCart();
          setState({ phase: "failed", message: body.message });
        }
      } catch {
        if (cancelled) return;
        setState({ phase: "error", message: VERIFY_FAILED });
        toast.error("Failed to verify payment");
      }
    }
    void verify();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
    // Once per session id: `result` is what the server found for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);

  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <CheckoutResult state={state} />
      {state.phase === "verifying" && sessionId ? (
        // Without script nothing asks again: the shopper can (shown only when no script runs).
        <p className="mt-6 hidden text-center noscript:block">
          <a href={`/order-success?session_id=${encodeURIComponent(sessionId)}`} className="underline underline-offset-4">
            Check again
          </a>
        </p>
      ) : null}
    </div>
  );
}
