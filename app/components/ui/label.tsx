import * as React from "react";
import { Label as LabelPrimitive } from "radix-ui";

import { cn } from "~/lib/utils";
import { LABEL } from "./lean/label";

function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn(LABEL, className)}
      {...props}
    />
  );
}

export { Label };
