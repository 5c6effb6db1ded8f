import { clsx } from "clsx";
import { SEPARATOR } from "../classes";

/** A decorative rule, as Radix's Separator renders it, without Radix (see README.md). */
export function Separator({ className }: { className?: string }) {
  return <div role="none" data-orientation="horizontal" className={clsx(SEPARATOR, className)} />;
}
