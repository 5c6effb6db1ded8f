import { clsx } from "~/components/ui/lean/clsx";
import type { ComponentProps } from "react";

/** Shared with the full primitive in ../, which merges a caller's classes over it. */
export const LABEL =
  "flex items-center gap-2 text-sm leading-none font-medium select-none group-data-[disabled=true]:pointer-events-none group-data-[disabled=true]:opacity-50 peer-disabled:cursor-not-allowed peer-disabled:opacity-50";

/** A form label without Radix or tailwind-merge (see README.md). */
export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={clsx(LABEL, className)} {...props} />;
}
