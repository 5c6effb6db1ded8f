import { formatMoney } from "~/lib/money";
import { formatUtcDate } from "~/lib/utc-date";

/**
 * A refund as the shopper sees it: done once the payment provider confirmed it, in progress until
 * then (a refund the shop is still retrying is in progress too; one the shop gave up is not shown).
 */
export type ShopperRefund = { id: string; amountCents: number; state: "done" | "in_progress"; at: string };

/**
 * The shopper order page's refunds, from the order's ledger: each refund, what was refunded in all
 * and what the shop still holds. Nothing when there is no refund.
 */
export function OrderRefunds({ refunds, refundedCents, balanceCents }: { refunds: ShopperRefund[]; refundedCents: number; balanceCents: number }) {
  if (refunds.length === 0) return null;
  return (
    <div className="grid gap-2 border-t pt-4 text-sm">
      <h3 className="font-semibold">Refunds</h3>
      <ul className="grid gap-1" aria-label="Refunds">
        {refunds.map((r) => (
          <li key={r.id}>
            {r.state === "done" ? (
              <>
                Refunded {formatMoney(r.amountCents)} on <time dateTime={r.at}>{formatUtcDate(r.at, "long")}</time>
              </>
            ) : (
              <>Refund of {formatMoney(r.amountCents)} in progress</>
            )}
          </li>
        ))}
      </ul>
      <dl className="grid gap-1.5" aria-label="Refund totals">
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Refunded</dt>
          <dd className="tabular-nums" data-testid="order-page-refunded">
            {formatMoney(refundedCents)}
          </dd>
        </div>
        <div className="flex justify-between gap-4 font-semibold">
          <dt>Paid after refunds</dt>
          <dd className="tabular-nums" data-testid="order-page-balance">
            {formatMoney(balanceCents)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
