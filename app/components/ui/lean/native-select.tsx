import { clsx } from "clsx";
import type { ComponentProps } from "react";
import { ChevronDown } from "./icons/chevron-down";
import { NATIVE_SELECT, NATIVE_SELECT_ICON, NATIVE_SELECT_OPTION, NATIVE_SELECT_WRAPPER } from "../classes";

/** A styled native <select> without tailwind-merge (see README.md); `wrapperClassName` sets the width (w-fit otherwise). */
export function NativeSelect({ className, wrapperClassName = "w-fit", ...props }: ComponentProps<"select"> & { wrapperClassName?: string }) {
  return (
    <div className={clsx(NATIVE_SELECT_WRAPPER, wrapperClassName)}>
      <select className={clsx(NATIVE_SELECT, className)} {...props} />
      <ChevronDown className={NATIVE_SELECT_ICON} />
    </div>
  );
}

export function NativeSelectOption(props: ComponentProps<"option">) {
  return <option className={NATIVE_SELECT_OPTION} {...props} />;
}
