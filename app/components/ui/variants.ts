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
 * storefront's first load ships without tailwind-merge). No variant here repeats a utility of
 * the base (gap, focus ring colour, height, background), so even a plain join never carries two
 * classes fighting over one property; variants.test.ts checks it.
 */

export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center whitespace-nowrap rounded-md text-sm font-medium transition-all outline-none focus-visible:border-ring focus-visible:ring-[3px] disabled:pointer-events-none disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90 focus-visible:ring-ring/50",
        destructive:
          "bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive/90 focus-visible:ring-destructive/20 dark:focus-visible:ring-destructive/40",
        outline:
          "border border-input bg-background shadow-xs hover:bg-accent hover:text-accent-foreground focus-visible:ring-ring/50 dark:bg-input/30 dark:hover:bg-input/50",
        secondary: "bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80 focus-visible:ring-ring/50",
        ghost: "hover:bg-accent hover:text-accent-foreground focus-visible:ring-ring/50 dark:hover:bg-accent/50",
        link: "text-primary underline-offset-4 hover:underline focus-visible:ring-ring/50",
      },
      size: {
        default: "h-9 gap-2 px-4 py-2 has-[>svg]:px-3",
        sm: "h-8 gap-1.5 px-3 has-[>svg]:px-2.5",
        lg: "h-10 gap-2 px-6 has-[>svg]:px-4",
        icon: "size-9 gap-2",
        "icon-sm": "size-8 gap-2",
      },
    },
    defaultVariants: {
      variant: "default",
      size: "default",
    },
  },
);

export const badgeVariants = cva(
  "inline-flex w-fit shrink-0 items-center justify-center gap-1 overflow-hidden rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&>svg]:pointer-events-none [&>svg]:size-3",
  {
    variants: {
      variant: {
        default: "border-transparent bg-primary text-primary-foreground focus-visible:ring-ring/50 [a&]:hover:bg-primary/90",
        secondary: "border-transparent bg-secondary text-secondary-foreground focus-visible:ring-ring/50 [a&]:hover:bg-secondary/90",
        destructive:
          "border-transparent bg-destructive text-destructive-foreground focus-visible:ring-destructive/20 dark:focus-visible:ring-destructive/40 [a&]:hover:bg-destructive/90",
        outline: "text-foreground focus-visible:ring-ring/50 [a&]:hover:bg-accent [a&]:hover:text-accent-foreground",
        success: "border-transparent bg-success text-success-foreground focus-visible:ring-ring/50 [a&]:hover:bg-success/90",
        warning: "border-transparent bg-warning text-warning-foreground focus-visible:ring-ring/50 [a&]:hover:bg-warning/90",
        info: "border-transparent bg-info text-info-foreground focus-visible:ring-ring/50 [a&]:hover:bg-info/90",
        // Grey whatever the theme: `secondary` follows the shop's chosen secondary colour.
        neutral: "border-transparent bg-muted text-muted-foreground focus-visible:ring-ring/50 [a&]:hover:bg-muted/90",
      },
    },
    defaultVariants: {
      variant: "default",
    },
  },
);

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
