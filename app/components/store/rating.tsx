import { clsx } from "~/components/ui/lean/clsx";
import { groupDigits } from "~/lib/money";

/** Five stars filled to the rating, the value, and optionally the review count. */
export function Rating({
  value,
  reviewCount,
  showCount = true,
  className,
}: {
  value: number;
  reviewCount?: number;
  showCount?: boolean;
  className?: string;
}) {
  const rating = Math.max(0, Math.min(5, value));
  const label = `Rated ${rating.toFixed(1)} out of 5${reviewCount !== undefined ? `, ${reviewCount} ${reviewCount === 1 ? "review" : "reviews"}` : ""}`;
  return (
    <div className={clsx("flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm", className)}>
      {/* Text stars, the filled row clipped to the rating: two elements instead of ten SVGs per card. */}
      <span role="img" aria-label={label} className="relative inline-block text-base leading-none tracking-tight whitespace-nowrap">
        <span aria-hidden className="text-muted-foreground/35">
          ★★★★★
        </span>
        <span aria-hidden className="absolute inset-0 overflow-hidden text-amber-500" style={{ width: `${(rating / 5) * 100}%` }}>
          ★★★★★
        </span>
      </span>
      <span aria-hidden className="font-medium">
        {rating.toFixed(1)}
      </span>
      {showCount && reviewCount !== undefined ? (
        <span aria-hidden className="text-muted-foreground">
          ({groupDigits(reviewCount)})
        </span>
      ) : null}
    </div>
  );
}
