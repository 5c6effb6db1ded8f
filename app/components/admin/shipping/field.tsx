/** Errors for one field removed when it changes (the others stay until the next save). */
export function without(errors: Record<string, string>, key: string): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) if (k !== key && !k.startsWith(`${key}.`)) next[k] = v;
  return next;
}

/** Where every write of the screen goes. */
export const SHIPPING_ACTION = "/admin/settings/shipping";
