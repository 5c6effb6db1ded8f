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
    <div className={clsx("rating", className)}>
      {/* Text stars, the filled row (the second) clipped to the rating: styles/components.css. */}
      <span role="img" aria-label={label} className="rating-stars">
        <span aria-hidden>★★★★★</span>
        <span aria-hidden style={{ width: `${(rating / 5) * 100}%` }}>
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
