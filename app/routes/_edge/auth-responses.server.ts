import { data, redirect } from "react-router";
import type { Refusal } from "~/server/platform/http/index.server";
import { respond } from "./errors.server";

export type ToastData = { title: string; description?: string; kind: "success" | "error" };

/** Whether the submitting page runs its script (see EnhancedField): then answer with data. */
export const isEnhanced = (form: FormData) => form.get("js") === "1";

/**
 * After a sign-in: with JavaScript, data (the page toasts 'Welcome back!' and navigates); without,
 * a redirect. Either way the session cookie better-auth set travels along.
 */
export function signedIn(form: FormData, redirectTo: string, cookies: Headers) {
  if (!isEnhanced(form)) return redirect(redirectTo, { headers: cookies });
  return data(
    {
      ok: true as const,
      redirectTo,
      toast: { kind: "success", title: "Welcome back!", description: "You've been signed in successfully." } satisfies ToastData,
    },
    { headers: cookies },
  );
}

/** An expected failure: the refusal's kind sets the status (for tests and tools), the toast and message tell the person. */
export function failed<E extends object>(refusal: Pick<Refusal, "kind" | "retryAfterSeconds">, title: string, description: string, extra?: E) {
  return respond(refusal, {
    ok: false as const,
    message: description,
    toast: { kind: "error", title, description } satisfies ToastData,
    ...(extra ?? ({} as E)),
  });
}
