import { RotateCw, XCircle } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { UtcTime } from "~/components/admin/utc-time";
import { formatMoney } from "~/lib/money";

export type FailedRefundRow = { id: string; createdAt: string; amountCents: number; reason: string };

export type FailedRefundActionResult = { intent: "retry-refund" | "close-refund"; ok: boolean; message: string };

export const FAILED_REFUND_FETCHER = "failed-refund";

/** A keyed fetcher's answers as toasts, once each (an answer there before the page opened is not shown again). */
function useAnswerToasts<T extends { ok: boolean; message: string }>(key: string, failureTitle: string | null) {
  const fetcher = useFetcher<T>({ key });
  const handled = useRef<unknown>(fetcher.data);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
    else if (failureTitle) toast.error(failureTitle, { description: result.message });
  }, [fetcher.state, fetcher.data, failureTitle]);
}

/**
 * On the order page, which stays while the dialog or a failed refund's row goes: the toasts of a
 * refund made (its refusals stay in the dialog) and of a failed refund retried or closed.
 */
export function useRefundToasts(refundFetcherKey: string) {
  useAnswerToasts<{ ok: boolean; message: string }>(refundFetcherKey, null);
  useAnswerToasts<FailedRefundActionResult>(FAILED_REFUND_FETCHER, "Refund not made");
}

/** One refused refund: 'Retry' asks the provider again now; 'Close' gives it up, after a confirmation. */
function FailedRefund({ row }: { row: FailedRefundRow }) {
  // One fetcher for every row (one answer at a time), shared with the page's useRefundToasts:
  // the row is gone once its refund went through or was closed.
  const fetcher = useFetcher<FailedRefundActionResult>({ key: FAILED_REFUND_FETCHER });
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  const amount = formatMoney(row.amountCents);

  return (
    <li className="grid gap-2 rounded-md border border-destructive/40 p-3" data-testid="failed-refund">
      <p>
        Refund of <strong className="tabular-nums">{amount}</strong> refused by the payment provider (asked <UtcTime iso={row.createdAt} />
        ).
      </p>
      {row.reason ? <p className="text-muted-foreground">{row.reason}</p> : null}
      <div className="flex flex-wrap gap-2">
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="retry-refund" />
          <input type="hidden" name="movementId" value={row.id} />
          <Button type="submit" size="sm" disabled={busy} aria-label={`Retry the refund of ${amount}`}>
            <RotateCw aria-hidden="true" />
            Retry
          </Button>
        </fetcher.Form>
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="outline" size="sm" disabled={busy} aria-label={`Close the refund of ${amount}`}>
              <XCircle aria-hidden="true" />
              Close
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <fetcher.Form method="post" className="grid gap-4" onSubmit={() => setConfirming(false)}>
              <input type="hidden" name="intent" value="close-refund" />
              <input type="hidden" name="movementId" value={row.id} />
              <AlertDialogHeader>
                <AlertDialogTitle>Close the refund of {amount}?</AlertDialogTitle>
                <AlertDialogDescription>
                  The shop stops asking the payment provider for it and it no longer counts as refunded. Refund the customer another way if you still owe it.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel type="button">Keep trying</AlertDialogCancel>
                <Button type="submit" variant="destructive">
                  Yes, close it
                </Button>
              </AlertDialogFooter>
            </fetcher.Form>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </li>
  );
}

/** Refunds the payment provider refused, each still owed until it goes through or the owner closes it. */
export function FailedRefunds({ rows }: { rows: FailedRefundRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Refunds that failed</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="text-sm">
        <ul className="grid gap-3" aria-label="Refunds that failed">
          {rows.map((r) => (
            <FailedRefund key={r.id} row={r} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
