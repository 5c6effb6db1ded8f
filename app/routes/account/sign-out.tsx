import { data, redirect } from "react-router";
import { isEnhanced } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { signOut } from "~/server/people/index.server";
import type { Route } from "./+types/sign-out";

/** Signing out changes state, so it is a POST only; a visit (or a link in a mail) does nothing. */
export function loader() {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const cookies = await signOut(request);
  if (!isEnhanced(form)) return redirect("/", { headers: cookies });
  return data(
    { ok: true as const, toast: { kind: "success" as const, title: "Signed out", description: "You've been signed out successfully." } },
    { headers: cookies },
  );
}
