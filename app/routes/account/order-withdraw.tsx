import { ArrowLeft } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { WITHDRAWAL_CONFIRM } from "~/lib/returns";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { orderPagePath, submitReturnForm, viewableOrderReturns } from "./order-returns.server";
import type { Route } from "./+types/order-withdraw";

/**
 * The EU withdrawal's one confirmation page (docs/rules/returns.md): the order, its items (all
 * ticked), an optional reason and 'Confirm withdrawal'. Confirming records the withdrawal with its
 * time, opens a return of the ticked items and mails the acknowledgement at once.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { order, viewer, returns } = await viewableOrderReturns(request, params.orderNumber);
  return {
    orderNumber: order.orderNumber,
    token: viewer.token,
    backTo: orderPagePath(order.orderNumber, viewer.token),
    open: returns.withdrawalOpen,
    lines: returns.returnable,
    formKey: crypto.randomUUID(),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  return submitReturnForm(request, params.orderNumber, "withdrawal", form);
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: data ? `Withdraw from order ${data.orderNumber} — ${brandFrom(matches)}` : `Page not found — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
];

export default function OrderWithdrawPage({ loaderData, actionData }: Route.ComponentProps) {
  const { orderNumber, token, backTo, open, lines, formKey } = loaderData;
  const busy = useNavigation().state === "submitting";
  const error = actionData && "message" in actionData ? actionData : null;
  return (
    <div className="mx-auto grid max-w-2xl gap-6 px-4 py-10">
      <Link to={backTo} className="inline-flex w-fit items-center gap-1 text-sm font-medium hover:underline">
        <ArrowLeft className="size-4" aria-hidden />
        Back to order {orderNumber}
      </Link>
      <h1 className="text-3xl font-bold break-all">Withdraw from order {orderNumber}</h1>
      {!open ? (
        <p role="alert">The withdrawal period for this order has ended.</p>
      ) : lines.length === 0 ? (
        <p>Every item of this order has already been returned.</p>
      ) : (
        <Form method="post" className="grid gap-6" aria-label="Withdrawal">
          <input type="hidden" name="key" value={formKey} />
          {token ? <input type="hidden" name="t" value={token} /> : null}
          <p>You withdraw from the contract for the items ticked below. We confirm it by email at once.</p>
          <fieldset className="grid gap-2">
            <legend className="mb-2 font-semibold">Items</legend>
            {lines.map((l) => (
              <label key={l.orderItemId} className="flex items-center gap-3 text-sm">
                <input type="checkbox" name="line" value={l.orderItemId} defaultChecked className="size-4 accent-primary" />
                {l.returnable} × {l.name}
              </label>
            ))}
          </fieldset>
          <div className="grid gap-2">
            <label htmlFor="withdrawal-reason" className="text-sm">
              Reason (optional)
            </label>
            <textarea id="withdrawal-reason" name="reasonText" maxLength={1000} rows={3} className="rounded-md border p-2" />
          </div>
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error.message}
            </p>
          ) : null}
          <Button type="submit" disabled={busy} className="w-fit">
            {WITHDRAWAL_CONFIRM}
          </Button>
        </Form>
      )}
    </div>
  );
}
