import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { badgeVariants, buttonVariants, inputVariants } from "./variants";

/** Classes tailwind-merge would drop from a plain join, i.e. two classes for one property. */
const conflicts = (classes: string) => {
  const kept = new Set(twMerge(classes).split(" "));
  return classes.split(" ").filter((c) => c && !kept.has(c));
};

// The lean primitives join these without tailwind-merge, so every variant must be conflict-free.
describe("shared variant classes", () => {
  it("every button variant and size joins without a conflict", () => {
    for (const variant of ["default", "destructive", "outline", "secondary", "ghost", "link", null] as const) {
      for (const size of ["default", "sm", "lg", "icon", "icon-sm"] as const) {
        expect(conflicts(buttonVariants({ variant, size })), `${variant} ${size}`).toEqual([]);
      }
    }
  });

  it("every badge variant joins without a conflict", () => {
    for (const variant of ["default", "secondary", "destructive", "outline", "success", "warning", "info"] as const) {
      expect(conflicts(badgeVariants({ variant })), variant).toEqual([]);
    }
  });

  it("every input size and surface joins without a conflict", () => {
    for (const size of ["default", "sm"] as const) {
      for (const surface of ["transparent", "background"] as const) {
        expect(conflicts(inputVariants({ size, surface })), `${size} ${surface}`).toEqual([]);
      }
    }
  });

  it("a conflict is caught", () => {
    expect(conflicts(buttonVariants({ size: "icon", className: "size-8" }))).toEqual(["size-9"]);
  });
});
