import * as React from "react";
import { Separator as SeparatorPrimitive } from "radix-ui";

import { cn } from "~/lib/utils";
import { SEPARATOR } from "./lean/separator";

function Separator({
  className,
  orientation = "horizontal",
  decorative = true,
  ...props
}: React.ComponentProps<typeof SeparatorPrimitive.Root>) {
  return (
    <SeparatorPrimitive.Root
      data-slot="separator"
      decorative={decorative}
      orientation={orientation}
      className={cn(SEPARATOR, className)}
      {...props}
    />
  );
}

export { Separator };
