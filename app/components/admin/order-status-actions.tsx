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
import { NativeSelect } from "~/components/ui/native-select";
import { CARRIER_NAMES, CARRIERS, TRACKING_NUMBER_MAX, TRACKING_URL_MAX } from "~/lib/carriers";
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

/**
 * Marking shipped: a carrier (its tracking link is built from the number; 'Other' asks for the
 * link itself) and the tracking number. The server checks the same rules (app/lib/carriers.ts).
 */
function ShipForm({ version, busy }: { version: number; busy: boolean }) {
  const [carrier, setCarrier] = useState("");
  return (
    <Form method="post" className="grid gap-3">
      <Hidden to="shipped" version={version} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor="carrier">Carrier</Label>
          <NativeSelect id="carrier" name="carrier" value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)}>
            <option value="">None</option>
            {CARRIERS.map((c) => (
              <option key={c} value={c}>
                {CARRIER_NAMES[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid min-w-0 flex-1 basis-48 gap-1.5">
          <Label htmlFor="tracking-number">{carrier && carrier !== "other" ? "Tracking number" : "Tracking number (optional)"}</Label>
          <Input
            id="tracking-number"
            name="trackingNumber"
            maxLength={TRACKING_NUMBER_MAX}
            autoComplete="off"
            required={Boolean(carrier) && carrier !== "other"}
          />
        </div>
      </div>
      {carrier === "other" ? (
        <div className="grid gap-1.5">
          <Label htmlFor="tracking-url">Tracking page address</Label>
          <Input id="tracking-url" name="trackingUrl" type="url" inputMode="url" placeholder="https://" maxLength={TRACKING_URL_MAX} required />
        </div>
      ) : null}
      <Button type="submit" disabled={busy} className="w-fit">
        <Truck aria-hidden="true" />
        Mark as shipped
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
      {moves.includes("shipped") ? <ShipForm version={version} busy={busy} /> : null}
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
