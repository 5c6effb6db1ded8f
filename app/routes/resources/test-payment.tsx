import { CreditCard, Lock } from "lucide-react";
import { Form, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { formatMoney } from "~/lib/money";
import { BodyTooLargeError, getDb, readFormWithLimit } from "~/server/platform/http/index.server";
import { respond } from "~/routes/_edge/errors.server";
import { invariantResponse } from "~/routes/_edge/guards.server";
import { activePaymentProviderName, getTestPaymentPage, payWithTestCard } from "~/server/commerce/index.server";
import type { Route } from "./+types/test-payment";

export const meta: Route.MetaFunction = () => [
  { title: "Pay for your order · test payment" },
  { name: "description", content: "The shop's built-in test payment page. No real money moves." },
  { name: "robots", content: "noindex" },
];

/** Same host the shopper is on: the built-in provider never sends anyone to another address. */
const pathOf = (url: string) => {
  const u = new URL(url, "http://localhost");
  return u.pathname + u.search;
};

// Only while the shop runs the test provider: with Stripe configured nobody may "pay" here.
function requireTestProvider() {
  invariantResponse(activePaymentProviderName() === "test", "Not Found");
}

export async function loader({ params }: Route.LoaderArgs) {
  requireTestProvider();
  const page = await getTestPaymentPage(getDb(), params.sessionId);
  invariantResponse(page, "Not Found");
  return {
    orderNumber: page.orderNumber,
    amountCents: page.amountCents,
    email: page.customerEmail,
    state: page.state,
    resultPath: pathOf(page.successUrl),
    cancelPath: pathOf(page.cancelUrl),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  requireTestProvider();
  const db = getDb();
  // Anything but a form body reads as an empty form, answered field by field.
  const form = await readFormWithLimit(request, 8 * 1024, { drainUpTo: 1024 * 1024 })
    .then((f) => Object.fromEntries(f))
    .catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) throw respond({ kind: "too_large", message: "The request is too large." });
      return {};
    });
  const result = await payWithTestCard(db, params.sessionId, form);
  invariantResponse(result.kind !== "not_found", "Not Found");
  if (result.kind === "invalid") return respond({ kind: "bad_input" }, { fieldErrors: result.fieldErrors });
  return redirect(pathOf(result.redirectTo));
}

export default function TestPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData?.fieldErrors ?? {};
  const open = loaderData.state === "open";
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-muted/40 px-4 py-10 sm:items-center">
      <div className="w-full max-w-md rounded-xl border bg-background p-6 shadow-sm">
        <p className="rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground" role="note">
          Test payment page: no real money moves. Card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.
        </p>
        <div className="mt-6 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h1 className="text-xl font-semibold">Pay for your order</h1>
          <span className="text-sm whitespace-nowrap text-muted-foreground">{loaderData.orderNumber}</span>
        </div>
        <p className="mt-1 text-sm text-muted-foreground">{loaderData.email}</p>
        <p className="mt-4 text-3xl font-bold" aria-label={`Total ${formatMoney(loaderData.amountCents)}`}>
          {formatMoney(loaderData.amountCents)}
        </p>

        {open ? (
          <Form method="post" className="mt-6 grid gap-4" noValidate>
            <FormField id="cardNumber" label="Card number" error={errors.cardNumber} className="grid gap-1.5">
              <div className="relative">
                <CreditCard className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
                <Input
                  id="cardNumber"
                  name="cardNumber"
                  inputMode="numeric"
                  autoComplete="cc-number"
                  placeholder="4242 4242 4242 4242"
                  className="pl-9"
                  {...fieldAria("cardNumber", errors.cardNumber)}
                  required
                />
              </div>
            </FormField>
            <div className="grid grid-cols-2 gap-4">
              <FormField id="expiry" label="Expiry date" error={errors.expiry} className="grid gap-1.5">
                <Input
                  id="expiry"
                  name="expiry"
                  inputMode="numeric"
                  autoComplete="cc-exp"
                  placeholder="MM / YY"
                  {...fieldAria("expiry", errors.expiry)}
                  required
                />
              </FormField>
              <FormField id="cvc" label="CVC" error={errors.cvc} className="grid gap-1.5">
                <Input
                  id="cvc"
                  name="cvc"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder="123"
                  {...fieldAria("cvc", errors.cvc)}
                  required
                />
              </FormField>
            </div>
            <Button type="submit" size="lg" disabled={paying} aria-disabled={paying}>
              <Lock aria-hidden />
              {paying ? "Processing..." : "Pay"}
            </Button>
          </Form>
        ) : (
          <div className="mt-6 grid gap-3">
            <p>This payment session is closed: it has already been paid, declined or has expired.</p>
            <Button asChild>
              <a href={loaderData.resultPath}>See the result</a>
            </Button>
          </div>
        )}
        <div className="mt-4 text-center">
          <a href={loaderData.cancelPath} className="text-sm text-muted-foreground underline underline-offset-4 hover:text-foreground">
            Cancel
          </a>
        </div>
      </div>
    </main>
  );
}
