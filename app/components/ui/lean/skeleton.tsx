import { clsx } from "~/components/ui/lean/clsx";
import type { ComponentProps } from "react";

/** Shared with the full primitive in ../, which merges a caller's classes over it. */
export const SKELETON = "animate-pulse rounded-md bg-accent motion-reduce:animate-none";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(SKELETON, className)} {...props} />;
}
