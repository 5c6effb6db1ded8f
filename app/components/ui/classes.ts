/**
 * Base classes of the simple primitives, shared by the full ones (merged with cn) and their lean
 * twins in ./lean (joined with clsx). Apart from variants.ts so a page that only needs a button
 * does not carry the card's and the select's class strings.
 */

export const NATIVE_SELECT_WRAPPER = "group/native-select relative has-[select:disabled]:opacity-50";
export const NATIVE_SELECT =
  "h-9 w-full min-w-0 appearance-none rounded-md border border-input bg-transparent py-1 pr-9 pl-3 text-base shadow-xs transition-[color,box-shadow] outline-none disabled:pointer-events-none disabled:cursor-not-allowed data-[size=sm]:h-8 md:text-sm dark:bg-input/30 dark:hover:bg-input/50 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40";
export const NATIVE_SELECT_ICON = "pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground select-none";
export const NATIVE_SELECT_OPTION = "bg-popover text-popover-foreground";

export const LABEL =
  "flex items-center gap-2 text-sm leading-none font-medium select-none group-data-[disabled=true]:pointer-events-none group-data-[disabled=true]:opacity-50 peer-disabled:cursor-not-allowed peer-disabled:opacity-50";

export const SKELETON = "animate-pulse rounded-md bg-accent motion-reduce:animate-none";

export const CARD = "flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm";
export const CARD_HEADER =
  "@container/card-header grid auto-rows-min grid-rows-[auto_auto] items-start gap-1.5 px-6 has-data-[slot=card-action]:grid-cols-[1fr_auto] [.border-b]:pb-6";
export const CARD_TITLE = "leading-none font-semibold";
export const CARD_CONTENT = "px-6";

export const SEPARATOR =
  "shrink-0 bg-border data-[orientation=horizontal]:h-px data-[orientation=horizontal]:w-full data-[orientation=vertical]:h-full data-[orientation=vertical]:w-px";
