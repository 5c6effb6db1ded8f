import type { VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { badgeVariants } from "../variants";

/** The shop's badge without tailwind-merge (see README.md). */
export function Badge({ className, variant, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span data-variant={variant ?? "default"} className={badgeVariants({ variant, className })} {...props} />;
}
