import { Ban, CheckCircle2, PackageCheck, Truck } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
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
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatMoney } from "~/lib/money";

type Props = {
  orderNumber: string;
  version: number;
  moves: readonly string[];
  paid: boolean;
  totalAmountCents: number;
};

function Hidden({ to, version }: { to: string; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="to" value={to} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

/** A move that needs nothing but the click. */
function MoveButton({ to, version, busy, children }: { to: string; version: number; busy: boolean; children: ReactNode }) {
  return (
    <Form method="post">
      <Hidden to={to} version={version} />
      <Button type="submit" disabled={busy}>
        {children}
      </Button>
    </Form>
  );
}

/** The moves this order allows, and nothing else; `version` tells the server what the admin saw. */
export function OrderStatusActions({ orderNumber, version, moves, paid, totalAmountCents }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [confirming, setConfirming] = useState(false);
  if (moves.length === 0) {
    return <p className="text-sm text-muted-foreground">This order is final: its status can no longer change.</p>;
  }
  return (
    <div className="grid gap-4">
      {moves.includes("processing") ? (
        <MoveButton to="processing" version={version} busy={busy}>
          <PackageCheck aria-hidden="true" />
          Mark as processing
        </MoveButton>
      ) : null}
      {moves.includes("shipped") ? (
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <Hidden to="shipped" version={version} />
          <div className="grid min-w-0 flex-1 basis-48 gap-1.5">
            <Label htmlFor="tracking-number">Tracking number (optional)</Label>
            <Input id="tracking-number" name="trackingNumber" maxLength={100} autoComplete="off" />
          </div>
          <Button type="submit" disabled={busy}>
            <Truck aria-hidden="true" />
            Mark as shipped
          </Button>
        </Form>
      ) : null}
      {moves.includes("completed") ? (
        <MoveButton to="completed" version={version} busy={busy}>
          <CheckCircle2 aria-hidden="true" />
          Mark as completed
        </MoveButton>
      ) : null}
      {moves.includes("cancelled") ? (
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="destructive" className="w-fit" disabled={busy}>
              <Ban aria-hidden="true" />
              Cancel order
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <Form method="post" className="grid gap-4" onSubmit={() => setConfirming(false)}>
              <Hidden to="cancelled" version={version} />
              <AlertDialogHeader>
                <AlertDialogTitle>Cancel order {orderNumber}?</AlertDialogTitle>
                <AlertDialogDescription>
                  {paid
                    ? "Its items go back into stock and the customer is emailed. This cannot be undone."
                    : "The order has not been paid; its payment page closes and the customer is emailed. This cannot be undone."}
                </AlertDialogDescription>
              </AlertDialogHeader>
              {paid ? (
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="refund" value="yes" defaultChecked className="size-4 accent-primary" />
                  Refund {formatMoney(totalAmountCents)} to the customer
                </label>
              ) : null}
              <AlertDialogFooter>
                <AlertDialogCancel type="button">Keep order</AlertDialogCancel>
                <Button type="submit" variant="destructive">
                  Yes, cancel order
                </Button>
              </AlertDialogFooter>
            </Form>
          </AlertDialogContent>
        </AlertDialog>
      ) : null}
    </div>
  );
}
