import type { AdminOrderEvent } from "~/lib/orders-view";
import { AdminOrderStatusBadge } from "./order-status-badge";
import { UtcTime } from "./utc-time";

const ACTORS: Record<string, string> = {
  test: "Test payment provider",
  stripe: "Stripe",
  system: "The shop",
  guest: "Guest (not signed in)",
  customer: "The customer",
};

/** Who made a change, in words: an admin by name and email, the customer, a payment provider, or the shop. */
export function actorText(e: Pick<AdminOrderEvent, "actorLabel" | "actorEmail">) {
  const who = Object.hasOwn(ACTORS, e.actorLabel) ? ACTORS[e.actorLabel]! : e.actorLabel || "The shop";
  if (!e.actorEmail) return who;
  return e.actorLabel === e.actorEmail ? e.actorEmail : `${who} (${e.actorEmail})`;
}

const TITLES: Record<string, string> = {
  payment: "Payment",
  sold_out: "Sold out",
  late_payment: "Late payment",
  refund: "Refund",
  attention: "Needs attention",
};

const isPlacing = (e: AdminOrderEvent) => e.kind === "status" && !e.fromStatus && e.toStatus === "pending";

function title(e: AdminOrderEvent) {
  if (e.fromStatus && e.toStatus && e.fromStatus !== e.toStatus) return null;
  if (isPlacing(e)) return "Order placed";
  return TITLES[e.kind] ?? "Note";
}

/** The order's history, oldest first, starting with its placing (recorded by the checkout, or taken from the order). */
export function OrderTimeline({ placedAt, placedBy, events }: { placedAt: string; placedBy: string; events: AdminOrderEvent[] }) {
  return (
    <ol className="grid gap-4 border-l pl-4" aria-label="Order timeline">
      {events.some(isPlacing) ? null : (
        <li className="relative">
          <span className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-muted-foreground" aria-hidden="true" />
          <p className="font-medium">Order placed</p>
          <p className="text-sm text-muted-foreground">
            by {placedBy} · <UtcTime iso={placedAt} withZone />
          </p>
        </li>
      )}
      {events.map((e) => {
        const heading = title(e);
        return (
          <li key={e.id} className="relative" data-kind={e.kind}>
            <span
              className={`absolute top-1.5 -left-[21px] size-2.5 rounded-full ${e.kind === "attention" ? "bg-destructive" : "bg-primary"}`}
              aria-hidden="true"
            />
            {heading ? (
              <p className="font-medium">{heading}</p>
            ) : (
              <p className="flex flex-wrap items-center gap-1.5 font-medium">
                <span className="sr-only">Status changed from {e.fromStatus} to {e.toStatus}</span>
                <span aria-hidden="true" className="flex flex-wrap items-center gap-1.5">
                  <AdminOrderStatusBadge status={e.fromStatus!} /> → <AdminOrderStatusBadge status={e.toStatus!} />
                </span>
              </p>
            )}
            {e.note && e.note !== heading ? <p className="text-sm break-words">{e.note}</p> : null}
            <p className="text-sm text-muted-foreground">
              by {actorText(e)} · <UtcTime iso={e.createdAt} withZone />
            </p>
          </li>
        );
      })}
    </ol>
  );
}
