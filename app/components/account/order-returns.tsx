import { Link } from "react-router";
import { RETURN_STATE_LABELS, WINDOW_CLOSED, WITHDRAWAL_BUTTON, type OrderReturnsView } from "~/lib/returns";
import { formatUtcDate } from "~/lib/utc-date";

/**
 * The shopper order page's returns (docs/rules/returns.md): each return with its number, state
 * and the shop's message; 'Return items' while the window is open and something is left to
 * return, or the sentence that the window has closed; and, when the owner turned the EU right of
 * withdrawal on, 'Withdraw from contract here' during its period.
 */
export function OrderReturns({ view, orderNumber, token }: { view: OrderReturnsView; orderNumber: string; token: string | null }) {
  const q = token ? `?t=${encodeURIComponent(token)}` : "";
  const base = `/profile/orders/${encodeURIComponent(orderNumber)}`;
  const canReturn = view.windowOpen && view.returnable.length > 0;
  if (!view.returns.length && !canReturn && !view.windowClosed && !view.withdrawalOpen) return null;
  return (
    <div className="grid gap-3 text-sm">
      {view.returns.length ? (
        <ul className="grid gap-3" aria-label="Returns">
          {view.returns.map((r) => (
            <li key={r.returnNumber} className="grid gap-1">
              <span className="font-medium">
                {r.kind === "withdrawal" ? "Withdrawal" : "Return"} {r.returnNumber}: {RETURN_STATE_LABELS[r.state]}
              </span>
              <span className="text-muted-foreground">
                Asked on <time dateTime={r.createdAt}>{formatUtcDate(r.createdAt, "long")}</time> · {r.lines.map((l) => `${l.quantity} × ${l.name}`).join(", ")}
              </span>
              {r.shopperMessage ? <span>{r.shopperMessage}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canReturn ? (
        <Link to={`${base}/return${q}`} className="w-fit font-medium underline">
          Return items
        </Link>
      ) : view.windowClosed ? (
        <p>{WINDOW_CLOSED}</p>
      ) : null}
      {view.withdrawalOpen ? (
        <Link to={`${base}/withdraw${q}`} className="w-fit rounded-md border px-3 py-2 font-medium hover:bg-muted">
          {WITHDRAWAL_BUTTON}
        </Link>
      ) : null}
    </div>
  );
}
