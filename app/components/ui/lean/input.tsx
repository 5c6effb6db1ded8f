import type { ComponentProps } from "react";
import { inputVariants } from "../variants";

/** The shop's text input without tailwind-merge (see README.md): height and background are props. */
export function Input({
  className,
  inputSize,
  surface,
  ...props
}: ComponentProps<"input"> & { inputSize?: "default" | "sm"; surface?: "transparent" | "background" }) {
  return <input className={inputVariants({ size: inputSize, surface, className })} {...props} />;
}
