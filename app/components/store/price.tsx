import { lowestPriceText } from "~/lib/lowest-price";
import { formatMoney } from "~/lib/money";
import { isOnSale } from "~/lib/product";
import { clsx } from "~/components/ui/lean/clsx";

/**
 * A price in cents, with the original price struck through only when it is higher (docs/rules/storefront.md),
 * and under a reduction its lowest price in the 30 days before it began, when known (docs/rules/lowest-price.md).
 */
export function Price({
  cents,
  originalCents = null,
  lowestCents = null,
  size = "default",
  className,
}: {
  cents: number;
  originalCents?: number | null;
  lowestCents?: number | null;
  size?: "default" | "lg";
  className?: string;
}) {
  const sale = isOnSale({ priceCents: cents, originalPriceCents: originalCents });
  const price = (
    <p className={clsx("flex flex-wrap items-baseline gap-2", className)}>
      <span className={clsx("font-semibold", size === "lg" ? "text-3xl" : "text-lg")}>
        {sale ? <span className="sr-only">Sale price </span> : null}
        {formatMoney(cents)}
      </span>
      {sale && originalCents !== null ? (
        <s className={clsx("text-muted-foreground", size === "lg" ? "text-xl" : "text-sm")}>
          <span className="sr-only">Original price </span>
          {formatMoney(originalCents)}
        </s>
      ) : null}
    </p>
  );
  if (!sale || lowestCents === null) return price;
  return (
    <>
      {price}
      <p className={clsx("text-muted-foreground", size === "lg" ? "text-sm" : "text-xs")} data-lowest-price>
        {lowestPriceText(lowestCents)}
      </p>
    </>
  );
}
