import { CheckCircle2, Circle, ExternalLink } from "lucide-react";
import { Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { orderMoneyRows, type OrderMoney } from "~/lib/order-money";
import { FALLBACK_PRODUCT_IMAGE } from "~/lib/product";
import type { ShopperOrder, ShopperOrderLine, ShopperShipment, TimelineStep } from "~/lib/shopper-order-view";
import { cn } from "~/lib/utils";
import { formatUtcDate } from "~/lib/utc-date";


export const formatOrderDate = (iso: string) => formatUtcDate(iso, "long");

/** The carrier, the tracking number and the link to the carrier's page for this parcel. */
export function TrackingDetails({ shipment }: { shipment: ShopperShipment }) {
  return (
    <div className="grid gap-1 text-sm">
      {shipment.carrierName ? <p>Carrier: {shipment.carrierName}</p> : null}
      {shipment.trackingNumber ? (
        <p>
          Tracking number: <span className="font-mono break-all">{shipment.trackingNumber}</span>
        </p>
      ) : null}
      {shipment.trackingUrl ? (
        // The page's address carries the guest's token: never send it along as a referrer.
        <a href={shipment.trackingUrl} target="_blank" rel="noopener noreferrer" className="inline-flex w-fit items-center gap-1 font-medium text-primary underline underline-offset-4">
          Track your parcel
          <ExternalLink className="size-3.5" aria-hidden />
          <span className="sr-only">(opens the carrier's site in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}

/** Placed, paid, shipped (with the tracking link), delivered; or up to the cancellation and refund. */
export function ShopperOrderTimeline({ steps, shipment }: { steps: TimelineStep[]; shipment: ShopperShipment | null }) {
  return (
    <ol className="grid gap-4" aria-label="Order progress">
      {steps.map((s) => (
        <li key={s.key} className="flex gap-3" data-step={s.key} data-done={s.done ? "true" : "false"}>
          {s.done ? (
            <CheckCircle2 className={cn("mt-0.5 size-5 shrink-0", s.key === "cancelled" ? "text-destructive" : "text-success")} aria-hidden />
          ) : (
            <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
          )}
          <div className="grid min-w-0 gap-1">
            <p className={cn("font-medium", !s.done && "text-muted-foreground")}>
              {s.label}
              {s.done ? null : <span className="sr-only"> (not yet)</span>}
            </p>
            {s.at ? (
              <p className="text-sm text-muted-foreground">
                <time dateTime={s.at}>{formatOrderDate(s.at)}</time>
              </p>
            ) : null}
            {s.note ? <p className="text-sm">{s.note}</p> : null}
            {s.key === "shipped" && s.done && shipment ? <TrackingDetails shipment={shipment} /> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The lines as sold, with their pictures; a product still in the shop links to its page. */
export function ShopperOrderLines({ lines }: { lines: ShopperOrderLine[] }) {
  return (
    <ul className="grid divide-y" aria-label="Items in this order">
      {lines.map((l) => (
        <li key={l.id} className="flex gap-4 py-4 first:pt-0">
          <img
            src={l.imageUrl || FALLBACK_PRODUCT_IMAGE}
            alt=""
            width={80}
            height={80}
            loading="lazy"
            className="size-16 shrink-0 rounded-md border bg-muted object-cover sm:size-20"
          />
          <div className="flex min-w-0 flex-1 flex-wrap items-start justify-between gap-x-4 gap-y-1">
            <div className="min-w-0">
              {l.productId ? (
                <Link to={`/product/${l.productId}`} className="font-medium break-words hover:underline">
                  {l.name}
                </Link>
              ) : (
                <p className="font-medium break-words">{l.name}</p>
              )}
              <p className="text-sm text-muted-foreground">
                {l.quantity} × {formatMoney(l.unitPriceCents)}
              </p>
            </div>
            <p className="font-medium tabular-nums">{formatMoney(l.lineTotalCents)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Every money line the order was placed at (app/lib/order-money.ts), as the confirmation mail shows them. */
export function OrderMoneyList({ money }: { money: OrderMoney }) {
  return (
    <dl className="grid gap-1.5 text-sm" aria-label="Order amounts">
      {orderMoneyRows(money, { alwaysTax: true }).map((row) => (
        <div key={row.key} className={cn("flex justify-between gap-4", row.key === "total" && "border-t pt-2 text-base font-semibold")}>
          <dt className={row.key === "total" ? undefined : "text-muted-foreground"}>{row.label}</dt>
          <dd className="tabular-nums" data-testid={`order-page-${row.key}`}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The address the order ships to. */
export function ShippingAddress({ address }: { address: ShopperOrder["address"] }) {
  return (
    <address className="grid gap-0.5 text-sm not-italic">
      <span className="font-medium">{address.name}</span>
      <span>{address.address}</span>
      <span>
        {address.city}, {address.state} {address.zipCode}
      </span>
      <span>{address.country}</span>
      {address.phone ? <span className="text-muted-foreground">{address.phone}</span> : null}
    </address>
  );
}
