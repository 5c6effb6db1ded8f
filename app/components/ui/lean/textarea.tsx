import { clsx } from "~/components/ui/lean/clsx";
import type { ComponentProps } from "react";

/** The textarea's classes without a minimum height: the full primitive adds min-h-16, a lean caller its own. */
export const TEXTAREA =
  "flex field-sizing-content w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs transition-[color,box-shadow] outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 md:text-sm dark:bg-input/30 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40";

/** A textarea without tailwind-merge (see README.md); give it a height with a min-h-* class. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={clsx(TEXTAREA, className)} {...props} />;
}
