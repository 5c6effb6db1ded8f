import { useEffect, useState } from "react";
import { brandFrom } from "~/lib/seo";
import { useSearchParams } from "react-router";
import { toast } from "~/lib/toast";
import { CheckoutResult, type ResultState } from "~/components/store/checkout-result";
import { dropStashedCart, restoreStashedCart } from "~/lib/cart";
import type { PaymentVerification } from "~/lib/checkout";
import type { Route } from "./+types/order-success";

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Payment result | ${brand}` },
    { name: "description", content: `The result of your ${brand} payment.` },
    { name: "robots", content: "noindex" },
  ];
};

// Card payments settle before the redirect; a slow webhook or bank gets a few more seconds.
const PENDING_RETRIES = 8;
const RETRY_MS = 1500;

/** The payment result page (docs/rules/cart-and-checkout.md): verifying, then success, failure or error. */
export default function OrderSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const [state, setState] = useState<ResultState>({ phase: "verifying" });

  useEffect(() => {
    if (!sessionId) {
      setState({ phase: "error", message: "No session ID found" });
      toast.error("Error", { description: "No session ID found" });
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
          setState({ phase: "error", message: "There was an issue verifying your payment." });
        } else {
          // 'Try Again' leads to the cart: give back the cart the checkout cleared.
          restoreStashedCart();
          setState({ phase: "failed", message: body.message });
        }
      } catch {
        if (cancelled) return;
        setState({ phase: "error", message: "There was an issue verifying your payment." });
        toast.error("Failed to verify payment");
      }
    }
    void verify();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [sessionId]);

  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <CheckoutResult state={state} />
    </div>
  );
}
