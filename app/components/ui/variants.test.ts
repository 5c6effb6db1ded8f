import { readFileSync } from "node:fs";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { badgeVariants, buttonVariants, inputVariants } from "./variants";

/** Each component class of styles/components.css and the utilities it applies. */
const componentClasses = new Map(
  [...readFileSync(new URL("../../styles/components.css", import.meta.url), "utf8").matchAll(/^\s*\.([\w-]+)\s*\{\s*@apply ([^;]+);/gm)].map(
    (m) => [m[1]!, m[2]!.trim()] as const,
  ),
);

/** The classes with every component class replaced by its utilities. */
const expand = (classes: string) =>
  classes
    .split(" ")
    .map((c) => componentClasses.get(c) ?? c)
    .join(" ");

/** Classes tailwind-merge would drop from a plain join, i.e. two classes for one property. */
const conflicts = (classes: string) => {
  const all = expand(classes);
  const kept = new Set(twMerge(all).split(" "));
  return all.split(" ").filter((c) => c && !kept.has(c));
};

// The lean primitives join these without tailwind-merge, and the button's and badge's variants are
// rules of one layer that only apply together, so no variant may set what its base sets.
const BUTTON_VARIANTS = ["default", "destructive", "outline", "secondary", "ghost", "link"] as const;
const BUTTON_SIZES = ["default", "sm", "lg", "icon", "icon-sm"] as const;
const BADGE_VARIANTS = ["default", "secondary", "destructive", "outline", "success", "warning", "info", "neutral"] as const;

describe("shared variant classes", () => {
  it("every button and badge class is a rule of the component stylesheet", () => {
    const named: string[] = [];
    for (const variant of BUTTON_VARIANTS) {
      for (const size of BUTTON_SIZES) named.push(...buttonVariants({ variant, size }).split(" "));
    }
    for (const variant of BADGE_VARIANTS) {
      named.push(...badgeVariants({ variant }).split(" "));
    }
    expect(named.filter((c) => !componentClasses.has(c))).toEqual([]);
  });

  it("every button variant and size joins without a conflict", () => {
    for (const variant of [...BUTTON_VARIANTS, null]) {
      for (const size of BUTTON_SIZES) {
        expect(conflicts(buttonVariants({ variant, size })), `${variant} ${size}`).toEqual([]);
      }
    }
  });

  it("every badge variant joins without a conflict", () => {
    for (const variant of BADGE_VARIANTS) {
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

  it("a conflict is caught, inside a component class too", () => {
    expect(conflicts(buttonVariants({ size: "icon", className: "size-8" }))).toEqual(["size-9"]);
    expect(conflicts("btn-md btn-sm")).toEqual(["h-9", "gap-2", "px-4", "has-[>svg]:px-3"]);
  });
});
