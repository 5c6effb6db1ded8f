import * as React from "react";

import { cn } from "~/lib/utils";
import { TEXTAREA } from "./lean/textarea";

function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      className={cn("min-h-16", TEXTAREA, className)}
      {...props}
    />
  );
}

export { Textarea };
