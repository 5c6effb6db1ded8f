import { ArrowDown, ArrowUp, Minus } from "lucide-react";
import { formatChange } from "~/lib/date-range";
import { cn } from "~/lib/utils";

/**
 * A figure's change against the previous period, told in text and an arrow (never by colour
 * alone): "+12.5%" with an up arrow, "−3%" with a down arrow, "0%", or "new" when there was
 * nothing before. Screen readers hear "up 12.5% on the previous period".
 */
export function FigureChange({ change, className }: { change: number | null; className?: string }) {
  const text = formatChange(change);
  const Icon = change === null || change > 0 ? ArrowUp : change < 0 ? ArrowDown : Minus;
  const spoken =
    change === null
      ? "new: nothing in the previous period"
      : change === 0
        ? "no change on the previous period"
        : `${change > 0 ? "up" : "down"} ${Math.abs(change).toLocaleString("en-US", { maximumFractionDigits: 1 })}% on the previous period`;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-0.5 font-medium",
        change === null || change > 0 ? "text-success" : change < 0 ? "text-destructive" : "text-muted-foreground",
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{spoken}</span>
    </span>
  );
}
