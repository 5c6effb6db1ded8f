import { clsx } from "clsx";
import type { ComponentProps } from "react";
import { LABEL } from "../classes";

/** A form label without Radix or tailwind-merge (see README.md). */
export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={clsx(LABEL, className)} {...props} />;
}
