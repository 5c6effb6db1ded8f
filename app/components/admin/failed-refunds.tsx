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

/** One refused refund: 'Retry' asks the provider again now; 'Close' gives it up, after a confirmation. */
function FailedRefund({ row }: { row: FailedRefundRow }) {
  const fetcher = useFetcher<FailedRefundActionResult>();
  const handled = useRef<unknown>(undefined);
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  const amount = formatMoney(row.amountCents);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error("Refund not made", { description: result.message });
  }, [fetcher.state, fetcher.data]);

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
