import { clsx } from "~/components/ui/lean/clsx";
import type { ReactNode, SVGProps } from "react";

/*
 * The storefront's icons as plain SVG, drawn with Lucide's paths (lucide-react 1.75; ISC licence,
 * copyright Lucide Contributors and Cole Bemis). lucide-react's runtime (createLucideIcon, Icon,
 * context) costs about 1.2 KB gzip on every first visit for what a static <svg> does; admin
 * screens keep using lucide-react. Same markup as lucide-react (classes "lucide lucide-<name>",
 * aria-hidden unless the icon has a label) but for the drawing attributes, size, fill and stroke,
 * which the `.lucide` rule sets (styles/components.css): a product grid repeats its cart icon 24
 * times. One module per icon, imported by its own path (no
 * barrel), so each page's chunk carries only the icons it draws.
 */

export type IconProps = Omit<SVGProps<SVGSVGElement>, "children">;

export function icon(name: string, paths: ReactNode) {
  function Icon({ className, ...props }: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        aria-hidden={props["aria-label"] ? undefined : true}
        className={clsx("lucide", `lucide-${name}`, className)}
        {...props}
      >
        {paths}
      </svg>
    );
  }
  return Icon;
}
