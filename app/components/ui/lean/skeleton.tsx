import { clsx } from "clsx";
import type { ComponentProps } from "react";
import { SKELETON } from "../classes";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx(SKELETON, className)} {...props} />;
}
