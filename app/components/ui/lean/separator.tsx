import { clsx } from "~/components/ui/lean/clsx";

/** Shared with the full primitive in ../, which merges a caller's classes over it. */
export const SEPARATOR =
  "shrink-0 bg-border data-[orientation=horizontal]:h-px data-[orientation=horizontal]:w-full data-[orientation=vertical]:h-full data-[orientation=vertical]:w-px";

/** A decorative rule, as Radix's Separator renders it, without Radix (see README.md). */
export function Separator({ className }: { className?: string }) {
  return <div role="none" data-orientation="horizontal" className={clsx(SEPARATOR, className)} />;
}
