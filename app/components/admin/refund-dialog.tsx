import { Undo2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { formatMoney } from "~/lib/money";
import { parseMoneyToCents } from "~/lib/money-input";
import { REFUND_TEXT_MAX, refundTotalCents, type RefundableView } from "~/lib/refund-input";

/** What the order page's action answers a refund with. */
export type RefundActionResult =
  | { intent: "refund"; ok: true; message: string }
  | { intent: "refund"; ok: false; message: string; errors?: Record<string, string> };

/** The dialog's fetcher, shared with the page's useRefundToasts. */
export const REFUND_FETCHER = "order-refund";

const typedCents = (s: string) => (s.trim() === "" ? 0 : (parseMoneyToCents(s) ?? 0));

/**
 * The owner's 'Refund': how many units of each line (up to what is still refundable), whether they
 * go back to stock, shipping, an extra amount with its reason, and why; the total is shown as it is
 * typed and on the confirm button. The server computes it again, checks it against what is left
 * and the order's version, and refunds its own figure; a refusal stays in the dialog.
 */
export function RefundDialog({
  refundable,
  orderNumber,
  forReturn = null,
}: {
  refundable: RefundableView;
  orderNumber: string;
  /** A received return to refund (the Refund link on /admin/returns): the dialog opens with its lines. */
  forReturn?: { id: string; returnNumber: string; lines: { orderItemId: string; quantity: number }[] } | null;
}) {
  const returnQuantities = () => Object.fromEntries((forReturn?.lines ?? []).map((l) => [l.orderItemId, String(l.quantity)]));
  const [open, setOpen] = useState(forReturn !== null);
  const fetcher = useFetcher<RefundActionResult>({ key: REFUND_FETCHER });
  const handled = useRef<unknown>(fetcher.data);
  const [quantities, setQuantities] = useState<Record<string, string>>(returnQuantities);
  const [shipping, setShipping] = useState("");
  const [adjustment, setAdjustment] = useState("");
  // The answer shown before the dialog was last opened: not shown again.
  const [dismissed, setDismissed] = useState<unknown>(undefined);
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    // The page's useRefundToasts says it: this dialog is gone when nothing is left to refund.
    if (result.ok) setOpen(false);
  }, [fetcher.state, result]);

  function reset(next: boolean) {
    setOpen(next);
    if (next) {
      setQuantities(returnQuantities());
      setShipping("");
      setAdjustment("");
      setDismissed(result);
    }
  }

  const picked = {
    quantities: Object.fromEntries(Object.entries(quantities).map(([id, q]) => [id, /^\d+$/.test(q) ? Number(q) : 0])),
    shippingCents: typedCents(shipping),
    adjustmentCents: typedCents(adjustment),
  };
  const total = refundTotalCents(refundable, picked);
  const failure = result && !result.ok && result !== dismissed ? result : null;
  const errors = failure?.errors ?? {};
  const shownError = failure && !failure.errors ? failure.message : (errors.form ?? null);

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button variant="outline" className="w-fit">
          <Undo2 aria-hidden="true" />
          Refund
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Refund order {orderNumber}</DialogTitle>
          <DialogDescription>
            {forReturn ? `For return ${forReturn.returnNumber}: its stock was settled when it was received. ` : ""}Up to {formatMoney(refundable.maxRefundCents)} can still be refunded. The money goes back to the card that paid.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="version" value={refundable.version} />
          {forReturn ? <input type="hidden" name="returnId" value={forReturn.id} /> : null}
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">Items</legend>
            {refundable.lines.map((line) => {
              const id = `refund-quantity-${line.orderItemId}`;
              const name = `quantity.${line.orderItemId}`;
              const done = line.refundableQuantity === 0;
              return (
                <div key={line.orderItemId} className="grid gap-1.5 rounded-md border p-3" data-testid="refund-line">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <label htmlFor={id} className="min-w-0 flex-1 text-sm font-medium break-words">
                      {line.name}
                    </label>
                    <span className="text-xs text-muted-foreground">
                      {done ? "All refunded" : `${line.refundableQuantity} of ${line.quantity} refundable (${formatMoney(line.refundableCents)})`}
                    </span>
                  </div>
                  {done ? null : (
                    <div className="flex flex-wrap items-center gap-4">
                      <Input
                        id={id}
                        name={name}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={line.refundableQuantity}
                        step={1}
                        value={quantities[line.orderItemId] ?? "0"}
                        onChange={(e) => {
                          // Read now: React clears currentTarget once the event is handled, before the update runs.
                          const value = e.currentTarget.value;
                          setQuantities((q) => ({ ...q, [line.orderItemId]: value }));
                        }}
                        className="w-24"
                        {...fieldAria(id, errors[name])}
                      />
                      {forReturn ? null : line.stockTracked ? (
                        <label className="flex items-center gap-2 text-sm">
                          <input type="checkbox" name={`restock.${line.orderItemId}`} defaultChecked className="size-4 accent-primary" />
                          Restock
                        </label>
                      ) : (
                        <span className="text-xs text-muted-foreground">No stock kept for this product</span>
                      )}
                    </div>
                  )}
                  {errors[name] ? (
                    <p id={`${id}-error`} className="text-sm text-destructive">
                      {errors[name]}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
          <FormField id="refund-shipping" label="Shipping to refund" hint={`Up to ${formatMoney(refundable.shippingRefundableCents)}`} error={errors.shipping}>
            <Input
              id="refund-shipping"
              name="shipping"
              inputMode="decimal"
              placeholder="0.00"
              value={shipping}
              disabled={refundable.shippingRefundableCents === 0}
              onChange={(e) => setShipping(e.currentTarget.value)}
              {...fieldAria("refund-shipping", errors.shipping, true)}
            />
          </FormField>
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField id="refund-adjustment" label="Extra amount (optional)" error={errors.adjustment}>
              <Input
                id="refund-adjustment"
                name="adjustment"
                inputMode="decimal"
                placeholder="0.00"
                value={adjustment}
                onChange={(e) => setAdjustment(e.currentTarget.value)}
                {...fieldAria("refund-adjustment", errors.adjustment)}
              />
            </FormField>
            <FormField id="refund-adjustment-reason" label="Reason for the extra amount" error={errors.adjustmentReason}>
              <Input
                id="refund-adjustment-reason"
                name="adjustmentReason"
                maxLength={REFUND_TEXT_MAX}
                required={picked.adjustmentCents > 0}
                {...fieldAria("refund-adjustment-reason", errors.adjustmentReason)}
              />
            </FormField>
          </div>
          <FormField id="refund-reason" label="Reason (optional)" error={errors.reason}>
            <Textarea id="refund-reason" name="reason" rows={2} maxLength={REFUND_TEXT_MAX} {...fieldAria("refund-reason", errors.reason)} />
          </FormField>
          <p className="text-sm" aria-live="polite">
            Refund total: <strong className="tabular-nums" data-testid="refund-total">{formatMoney(total)}</strong>
          </p>
          {shownError ? (
            <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm text-destructive">
              {shownError}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || total <= 0}>
              Refund {formatMoney(total)}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
