import * as React from "react";
import { ChevronDownIcon } from "lucide-react";

import { cn } from "~/lib/utils";
import { NATIVE_SELECT, NATIVE_SELECT_ICON, NATIVE_SELECT_OPTION, NATIVE_SELECT_WRAPPER } from "./lean/native-select";

/**
 * A styled native <select>: it submits with the form and works before
 * (or without) JavaScript, unlike the Radix Select.
 */
function NativeSelect({
  className,
  wrapperClassName,
  size = "default",
  ...props
}: Omit<React.ComponentProps<"select">, "size"> & {
  size?: "sm" | "default";
  /** Classes for the wrapper, e.g. `w-full` to stretch the control. */
  wrapperClassName?: string;
}) {
  return (
    <div
      data-slot="native-select-wrapper"
      className={cn(NATIVE_SELECT_WRAPPER, "w-fit", wrapperClassName)}
    >
      <select
        data-slot="native-select"
        data-size={size}
        className={cn(NATIVE_SELECT, className)}
        {...props}
      />
      <ChevronDownIcon
        data-slot="native-select-icon"
        aria-hidden="true"
        className={NATIVE_SELECT_ICON}
      />
    </div>
  );
}

function NativeSelectOption({ className, ...props }: React.ComponentProps<"option">) {
  return (
    <option
      data-slot="native-select-option"
      className={cn(NATIVE_SELECT_OPTION, className)}
      {...props}
    />
  );
}

function NativeSelectOptGroup({ className, ...props }: React.ComponentProps<"optgroup">) {
  return (
    <optgroup
      data-slot="native-select-optgroup"
      className={cn(NATIVE_SELECT_OPTION, className)}
      {...props}
    />
  );
}

export { NativeSelect, NativeSelectOptGroup, NativeSelectOption };
