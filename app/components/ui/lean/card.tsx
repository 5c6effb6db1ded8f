import { clsx } from "~/components/ui/lean/clsx";
import type { ComponentProps } from "react";

/** Shared with the full primitive in ../, which merges a caller's classes over it. */
export const CARD = "flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm";
export const CARD_HEADER =
  "@container/card-header grid auto-rows-min grid-rows-[auto_auto] items-start gap-1.5 px-6 has-data-[slot=card-action]:grid-cols-[1fr_auto] [.border-b]:pb-6";
export const CARD_TITLE = "leading-none font-semibold";
export const CARD_CONTENT = "px-6";

/** Card pieces without tailwind-merge (see README.md). */
export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(CARD, className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(CARD_HEADER, className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(CARD_TITLE, className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(CARD_CONTENT, className)} {...props} />;
}
