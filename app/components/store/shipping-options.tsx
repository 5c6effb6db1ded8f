import { formatMoney } from "~/lib/money";
import type { ShippingReview } from "~/lib/pricing-view";

/**
 * The ways to ship to the address as typed, priced by the server for this cart (cheapest first
 * and picked unless the shopper picks another): name, price and delivery estimate.
 */
export function ShippingOptions({
  shipping,
  selectedId,
  onSelect,
}: {
  shipping: ShippingReview | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-xl font-semibold">Shipping Method</legend>
      {!shipping || shipping.state === "needs_address" ? (
        <p className="text-sm text-muted-foreground">Enter your address to see the shipping options.</p>
      ) : shipping.state === "unavailable" ? (
        <p className="text-sm text-destructive" role="alert">
          {shipping.message}
        </p>
      ) : (
        shipping.options.map((option) => {
          const checked = (selectedId ?? shipping.selectedId) === option.id;
          return (
            <label
              key={option.id}
              className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/50"
            >
              <input
                type="radio"
                name="shippingRateId"
                value={option.id}
                checked={checked}
                onChange={() => onSelect(option.id)}
                className="mt-0.5 accent-primary"
              />
              <span className="grid flex-1 gap-0.5">
                <span className="flex justify-between gap-4 font-medium">
                  <span>{option.name}</span>
                  <span>{option.amountCents === 0 ? "Free" : formatMoney(option.amountCents)}</span>
                </span>
                {option.estimate ? <span className="text-muted-foreground">{option.estimate}</span> : null}
              </span>
            </label>
          );
        })
      )}
    </fieldset>
  );
}
