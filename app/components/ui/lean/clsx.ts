/**
 * The class joining the storefront's components need (strings, and false, null or undefined for
 * none), under clsx's name: the clsx package also takes objects and arrays, and its code came to
 * about 0.2 KB gzip on every storefront page. The admin keeps clsx (through ~/lib/utils' cn).
 */
export function clsx(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
