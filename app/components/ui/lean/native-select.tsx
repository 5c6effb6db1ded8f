import { clsx } from "~/components/ui/lean/clsx";
import type { ComponentProps } from "react";
import { ChevronDown } from "./icons/chevron-down";

/** Shared with the full primitive in ../, which merges a caller's classes over it. */
export const NATIVE_SELECT_WRAPPER = "group/native-select relative has-[select:disabled]:opacity-50";
export const NATIVE_SELECT =
  "h-9 w-full min-w-0 appearance-none rounded-md border border-input bg-transparent py-1 pr-9 pl-3 text-base shadow-xs transition-[color,box-shadow] outline-none disabled:pointer-events-none disabled:cursor-not-allowed data-[size=sm]:h-8 md:text-sm dark:bg-input/30 dark:hover:bg-input/50 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40";
export const NATIVE_SELECT_ICON = "pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground select-none";
export const NATIVE_SELECT_OPTION = "bg-popover text-popover-foreground";

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
