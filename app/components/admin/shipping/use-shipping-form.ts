import { useState } from "react";
import type { z } from "zod";
import { shippingFieldErrors } from "~/lib/shipping-settings-input";
import { useAdminAction } from "../use-admin-action";

/** Where every write of the screen goes. */
export const SHIPPING_ACTION = "/admin/settings/shipping";

/** Errors for one field removed when it changes (the others stay until the next save). */
export function without(errors: Record<string, string>, key: string): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) if (k !== key && !k.startsWith(`${key}.`)) next[k] = v;
  return next;
}

/**
 * One form of the Shipping & Tax screen: its values, and the messages beside its fields (a
 * field's own go when it changes). Submitting checks the values (`prepare`d first, when given)
 * with `schema` in the browser and shows what is wrong; good values go to the screen's action as
 * `payload(values)`, and the server's refusals come back beside the fields.
 */
export function useShippingForm<T extends object>(opts: {
  initial: T | (() => T);
  schema: z.ZodType;
  prepare?: (form: T) => T;
  payload: (values: T) => Record<string, unknown>;
  onSaved?: () => void;
}) {
  const [form, setForm] = useState<T>(opts.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAdminAction({
    action: SHIPPING_ACTION,
    onSuccess: () => opts.onSaved?.(),
    onFailure: (result) => setErrors(result.errors ?? {}),
  });

  const change = <K extends keyof T>(key: K, value: T[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => without(e, String(key)));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const values = opts.prepare ? opts.prepare(form) : form;
    const parsed = opts.schema.safeParse(values);
    if (!parsed.success) {
      setErrors(shippingFieldErrors(parsed.error));
      return;
    }
    save.submit(opts.payload(values));
  };

  return { form, errors, change, submit, busy: save.busy };
}
