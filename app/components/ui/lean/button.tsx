import type { VariantProps } from "class-variance-authority";
import { cloneElement, isValidElement, type ComponentProps, type ReactElement } from "react";
import { buttonVariants } from "../variants";

/** The shop's button without tailwind-merge or Radix (see README.md). */
export function Button({
  className,
  variant,
  size,
  asChild = false,
  children,
  ...props
}: ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const classes = buttonVariants({ variant, size, className });
  if (asChild && isValidElement(children)) {
    const child = children as ReactElement<{ className?: string }>;
    return cloneElement(child, { ...props, className: child.props.className ? `${classes} ${child.props.className}` : classes });
  }
  return (
    <button className={classes} {...props}>
      {children}
    </button>
  );
}
