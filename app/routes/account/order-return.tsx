import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { RETURN_REASON_KEYS, RETURN_REASON_LABELS, WINDOW_CLOSED } from "~/lib/returns";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { orderPagePath, submitReturnForm, viewableOrderReturns } from "./order-returns.server";
import type { Route } from "./+types/order-return";

/**
 * 'Return items' (docs/rules/returns.md): the lines still the shopper's to return, a quantity for
 * each, a reason from a short list; within the return window only.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { order, viewer, returns } = await viewableOrderReturns(request, params.orderNumber);
  return {
    orderNumber: order.orderNumber,
    token: viewer.token,
    backTo: orderPagePath(order.orderNumber, viewer.token),
    windowOpen: returns.windowOpen,
    windowClosed: returns.windowClosed,
    lines: returns.returnable,
    // The form's key: the same form sent twice makes one return.
    formKey: crypto.randomUUID(),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  return submitReturnForm(request, params.orderNumber, "return", form);
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: data ? `Return items from order ${data.orderNumber} — ${brandFrom(matches)}` : `Page not found — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
];

export default function OrderReturnPage({ loaderData, actionData }: Route.ComponentProps) {
  const { orderNumber, token, backTo, windowOpen, windowClosed, lines, formKey } = loaderData;
  const [reason, setReason] = useState<string>("");
  const busy = useNavigation().state === "submitting";
  const error = actionData && "message" in actionData ? actionData : null;
  return (
    <div className="mx-auto grid max-w-2xl gap-6 px-4 py-10">
      <Link to={backTo} className="inline-flex w-fit items-center gap-1 text-sm font-medium hover:underline">
        <ArrowLeft className="size-4" aria-hidden />
        Back to order {orderNumber}
      </Link>
      <h1 className="text-3xl font-bold break-all">Return items</h1>
      {!windowOpen ? (
        <p role="alert">{windowClosed ? WINDOW_CLOSED : "This order cannot be returned."}</p>
      ) : lines.length === 0 ? (
        <p>Every item of this order has already been returned.</p>
      ) : (
        <Form method="post" className="grid gap-6" aria-label="Return items">
          <input type="hidden" name="key" value={formKey} />
          {token ? <input type="hidden" name="t" value={token} /> : null}
          <fieldset className="grid gap-3">
            <legend className="mb-2 font-semibold">Which items, and how many?</legend>
            {lines.map((l) => (
              <div key={l.orderItemId} className="flex items-center justify-between gap-4">
                <label htmlFor={`qty-${l.orderItemId}`} className="text-sm">
                  {l.name} <span className="text-muted-foreground">(up to {l.returnable})</span>
                </label>
                <input
                  id={`qty-${l.orderItemId}`}
                  name={`qty.${l.orderItemId}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={l.returnable}
                  step={1}
                  defaultValue={0}
                  className="h-9 w-20 rounded-md border px-2"
                  aria-invalid={error?.field === `qty.${l.orderItemId}` || error?.field === `quantity.${l.orderItemId}` || undefined}
                />
              </div>
            ))}
          </fieldset>
          <div className="grid gap-2">
            <label htmlFor="return-reason" className="font-semibold">
              Reason
            </label>
            <select
              id="return-reason"
              name="reason"
              required
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              className="h-9 rounded-md border px-2"
            >
              <option value="" disabled>
                Choose a reason
              </option>
              {RETURN_REASON_KEYS.map((k) => (
                <option key={k} value={k}>
                  {RETURN_REASON_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2">
            <label htmlFor="return-reason-text" className="text-sm">
              Tell us more{reason === "other" ? "" : " (optional)"}
            </label>
            <textarea id="return-reason-text" name="reasonText" maxLength={1000} rows={3} className="rounded-md border p-2" />
          </div>
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error.message}
            </p>
          ) : null}
          <Button type="submit" disabled={busy} className="w-fit">
            {busy ? "Sending..." : "Request return"}
          </Button>
        </Form>
      )}
    </div>
  );
}
