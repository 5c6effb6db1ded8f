import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "sonner";
import { UtcTime } from "~/components/admin/utc-time";
import { Button } from "~/components/ui/button";
import { RETURN_STATE_KEYS, RETURN_STATE_LABELS, type ReturnState } from "~/lib/returns";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { listReturns, moveReturn, ReturnError, type AdminReturnRow, type ReturnMove } from "~/server/commerce/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/returns";

type Filter = ReturnState | "all";
const isState = (v: unknown): v is ReturnState => (RETURN_STATE_KEYS as readonly unknown[]).includes(v);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const state = new URL(request.url).searchParams.get("state");
  const filter: Filter = isState(state) ? state : "all";
  return { filter, returns: await listReturns(getDb(), { state: filter === "all" ? null : filter }) };
}

type Answer = { ok: boolean; message: string };

const DONE: Record<ReturnMove["to"], string> = {
  approved: "Return approved: the shopper was mailed.",
  rejected: "Return rejected: the shopper was mailed.",
  received: "Return received: stock settled, the shopper was mailed.",
  closed: "Return closed: the shopper was mailed.",
};

/** One step of a return (docs/rules/returns.md): approve, reject (with a message), receive (restock per line), close. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readPublicForm(request);
  const id = String(form.get("id") ?? "");
  const to = String(form.get("to") ?? "");
  const message = String(form.get("message") ?? "").slice(0, 2000);
  let move: ReturnMove;
  if (to === "approved" || to === "closed") move = { to, message };
  else if (to === "rejected") move = { to, message };
  else if (to === "received") {
    const restock: Record<string, boolean> = {};
    for (const [name, value] of form.entries()) if (name.startsWith("restock.")) restock[name.slice(8)] = value === "on";
    move = { to, restock };
  } else return respond<Answer>({ kind: "bad_input" }, { ok: false, message: "This action is not supported" });
  try {
    await moveReturn(getDb(), id, move, { actorUserId: admin.id, actorLabel: admin.name || admin.email });
  } catch (err) {
    if (err instanceof ReturnError) return respond<Answer>(err, { ok: false, message: err.message });
    throw err;
  }
  return { ok: true, message: DONE[move.to] } satisfies Answer;
}

export const meta: Route.MetaFunction = () => [
  { title: "Returns — Admin" },
  { name: "description", content: "Returns and withdrawals: approve, reject, receive, refund or close." },
  { name: "robots", content: "noindex" },
];

function useResultToast(result: Answer | undefined) {
  const seen = useRef<unknown>(undefined);
  useEffect(() => {
    if (!result || seen.current === result) return;
    seen.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error("Failed to update return", { description: result.message });
  }, [result]);
}

export default function ReturnsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, returns } = loaderData;
  useResultToast(actionData);
  const filters: Filter[] = ["all", ...RETURN_STATE_KEYS];
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Returns</h1>
        <p className="text-muted-foreground">
          Returns and withdrawals, newest first: approve or reject a request, mark it received (restocking each line or not), then
          refund it from its order or close it. Each step mails the shopper and goes on the order's timeline.
        </p>
      </div>
      <nav aria-label="Filter returns" className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <Button key={f} asChild size="sm" variant={f === filter ? "default" : "outline"}>
            <Link to={f === "all" ? "?" : `?state=${f}`} aria-current={f === filter ? "page" : undefined}>
              {f === "all" ? "All" : RETURN_STATE_LABELS[f]}
            </Link>
          </Button>
        ))}
      </nav>
      <div role="status" className="text-sm empty:hidden">
        {actionData ? actionData.message : null}
      </div>
      {returns.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">No returns here.</p>
      ) : (
        <ul className="grid gap-4" aria-label="Returns">
          {returns.map((r) => (
            <ReturnCard key={r.id} ret={r} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ReturnCard({ ret }: { ret: AdminReturnRow }) {
  const busy = useNavigation().state === "submitting";
  return (
    <li className="grid gap-3 rounded-lg border p-4" aria-label={`Return ${ret.returnNumber}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">
          {ret.kind === "withdrawal" ? "Withdrawal" : "Return"} {ret.returnNumber}
        </h2>
        <span className="rounded-md border px-2 py-0.5 text-sm" data-state={ret.state}>
          {RETURN_STATE_LABELS[ret.state]}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">
        Order{" "}
        <Link to={`/admin/orders/${ret.orderNumber}`} className="underline">
          {ret.orderNumber}
        </Link>{" "}
        · {ret.customer} ({ret.email}) · asked <UtcTime iso={ret.createdAt} />
        {ret.withdrawnAt ? (
          <>
            {" "}
            · withdrawal declared <UtcTime iso={ret.withdrawnAt} />
          </>
        ) : null}
      </p>
      <p className="text-sm">Reason: {ret.reason}</p>
      {ret.shopperMessage ? <p className="text-sm">Message to the shopper: {ret.shopperMessage}</p> : null}
      {ret.state === "approved" ? (
        <Form method="post" className="grid gap-2" aria-label={`Receive ${ret.returnNumber}`}>
          <input type="hidden" name="id" value={ret.id} />
          <input type="hidden" name="to" value="received" />
          <ul className="grid gap-1 text-sm">
            {ret.lines.map((l) => (
              <li key={l.orderItemId} className="flex items-center gap-3">
                <span>
                  {l.quantity} × {l.name}
                </span>
                {l.stockTracked ? (
                  <label className="flex items-center gap-1">
                    <input type="checkbox" name={`restock.${l.orderItemId}`} defaultChecked className="size-4" />
                    Restock
                  </label>
                ) : (
                  <span className="text-muted-foreground">(stock not tracked)</span>
                )}
              </li>
            ))}
          </ul>
          <Button type="submit" size="sm" className="w-fit" disabled={busy}>
            Mark received
          </Button>
        </Form>
      ) : (
        <ul className="grid gap-1 text-sm">
          {ret.lines.map((l) => (
            <li key={l.orderItemId}>
              {l.quantity} × {l.name}
              {l.restock === true ? " — restocked" : l.restock === false ? " — not restocked" : ""}
            </li>
          ))}
        </ul>
      )}
      {ret.state === "requested" ? (
        <Form method="post" className="grid gap-2" aria-label={`Decide ${ret.returnNumber}`}>
          <input type="hidden" name="id" value={ret.id} />
          <label htmlFor={`message-${ret.id}`} className="text-sm">
            Message to the shopper (needed to reject)
          </label>
          <textarea id={`message-${ret.id}`} name="message" rows={2} maxLength={2000} className="rounded-md border p-2 text-sm" />
          <div className="flex gap-2">
            <Button type="submit" size="sm" name="to" value="approved" disabled={busy}>
              Approve
            </Button>
            <Button type="submit" size="sm" variant="outline" name="to" value="rejected" disabled={busy}>
              Reject
            </Button>
          </div>
        </Form>
      ) : null}
      {ret.state === "received" ? (
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            {/* The order page's refund dialog, opened with this return's lines and id. */}
            <Link to={`/admin/orders/${ret.orderNumber}?refundReturn=${ret.id}`}>Refund</Link>
          </Button>
          <CloseButton ret={ret} busy={busy} />
        </div>
      ) : ret.state === "approved" ? (
        <CloseButton ret={ret} busy={busy} />
      ) : null}
    </li>
  );
}

function CloseButton({ ret, busy }: { ret: AdminReturnRow; busy: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="id" value={ret.id} />
      <input type="hidden" name="to" value="closed" />
      <Button type="submit" size="sm" variant="outline" disabled={busy}>
        Close without refund
      </Button>
    </Form>
  );
}
