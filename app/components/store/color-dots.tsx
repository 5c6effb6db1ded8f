import { clsx } from "~/components/ui/lean/clsx";

/** At most 3 colour dots on a card, then '+N colors' (docs/rules/storefront.md, Product cards). */
export const MAX_COLOR_DOTS = 3;

/** `swatches` are the colours' CSS values in the same order (ProductCardData.swatches). */
export function ColorDots({ colors, swatches, className }: { colors: string[]; swatches: string[]; className?: string }) {
  if (colors.length === 0) return null;
  const shown = colors.slice(0, MAX_COLOR_DOTS);
  const more = colors.length - shown.length;
  return (
    <div className={clsx("flex items-center gap-1.5", className)}>
      <span className="sr-only">Colors: {colors.join(", ")}</span>
      {shown.map((c, i) => (
        <span
          key={c}
          title={c}
          aria-hidden
          data-testid="color-dot"
          className="color-dot"
          style={{ backgroundColor: swatches[i] }}
        />
      ))}
      {more > 0 ? (
        <span aria-hidden className="text-xs text-muted-foreground">
          +{more} colors
        </span>
      ) : null}
    </div>
  );
}
