type Table = Record<string, Record<string, string>>;

/**
 * class-variance-authority's `cva` as these primitives use it (variants with defaults, `null` for
 * none, the caller's className last; no compound or boolean variants), in a few lines: cva's
 * runtime came to a quarter of a kilobyte gzip on every storefront page. Its `VariantProps` type
 * still applies to what this returns.
 */
function cva<T extends Table>(base: string, config: { variants: T; defaultVariants: { [K in keyof T]?: keyof T[K] } }) {
  return (props: { [K in keyof T]?: keyof T[K] | null } & { className?: string } = {}): string => {
    let classes = base;
    for (const key in config.variants) {
      const chosen = props[key] === undefined ? config.defaultVariants[key] : props[key];
      const variant = chosen === null || chosen === undefined ? undefined : config.variants[key]![chosen as string];
      if (variant) classes += ` ${variant}`;
    }
    return props.className ? `${classes} ${props.className}` : classes;
  };
}

/**
 * Variant classes shared by the primitives in this folder (which merge a caller's classes with
 * tailwind-merge, through cn) and their lean twins in ./lean (which only join them, so the
 * storefront's first load ships without tailwind-merge). The button and badge are component
 * classes (styles/components.css): a product grid repeats them dozens of times, and a caller's
 * utilities override them by cascade layer. No variant here repeats a utility of the base (gap,
 * focus ring colour, height, background), so even a plain join never carries two classes
 * fighting over one property; variants.test.ts checks it.
 */

export const buttonVariants = cva("btn", {
  variants: {
    variant: {
      default: "btn-default",
      destructive: "btn-destructive",
      outline: "btn-outline",
      secondary: "btn-secondary",
      ghost: "btn-ghost",
      link: "btn-link",
    },
    size: {
      default: "btn-md",
      sm: "btn-sm",
      lg: "btn-lg",
      icon: "btn-icon",
      "icon-sm": "btn-icon-sm",
    },
  },
  defaultVariants: {
    variant: "default",
    size: "default",
  },
});

export const badgeVariants = cva("badge", {
  variants: {
    variant: {
      default: "badge-default",
      secondary: "badge-secondary",
      destructive: "badge-destructive",
      outline: "badge-outline",
      success: "badge-success",
      warning: "badge-warning",
      info: "badge-info",
      neutral: "badge-neutral",
    },
  },
  defaultVariants: {
    variant: "default",
  },
});

/** `size` sets the height and `surface` the background, so a lean input never needs an override for either. */
export const inputVariants = cva(
  "flex w-full min-w-0 rounded-md border border-input px-3 py-1 text-base shadow-xs transition-[color,box-shadow] outline-none selection:bg-primary selection:text-primary-foreground file:inline-flex file:h-7 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground placeholder:text-muted-foreground disabled:pointer-events-none disabled:cursor-not-allowed disabled:opacity-50 md:text-sm dark:bg-input/30 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40",
  {
    variants: {
      size: { default: "h-9", sm: "h-8" },
      surface: { transparent: "bg-transparent", background: "bg-background" },
    },
    defaultVariants: { size: "default", surface: "transparent" },
  },
);
