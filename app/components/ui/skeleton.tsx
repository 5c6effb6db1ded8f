import * as React from "react";

import { cn } from "~/lib/utils";
import { SKELETON } from "./lean/skeleton";

function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      className={cn(SKELETON, className)}
      {...props}
    />
  );
}

export { Skeleton };
