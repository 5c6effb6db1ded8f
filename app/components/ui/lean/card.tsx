import { clsx } from "clsx";
import type { ComponentProps } from "react";
import { CARD, CARD_CONTENT, CARD_HEADER, CARD_TITLE } from "../classes";

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
