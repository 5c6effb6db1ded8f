import { data, redirect } from "react-router";
import { SUBSCRIBED_MESSAGE } from "~/lib/newsletter";
import { NewsletterInput } from "~/lib/newsletter-input";
import type { NewsletterResult } from "~/lib/newsletter-view";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { clientIp, getDb, logger, type Refusal } from "~/server/platform/http/index.server";
import { subscribe, TooManyAttempts } from "~/server/content/index.server";
import type { Route } from "./+types/newsletter";

/** Nothing to show here: the box lives in the footer. */
export async function loader() {
  return redirect("/");
}

/** A path on this site to return to after a submission without JavaScript. */
function backTo(value: FormDataEntryValue | null, outcome: string) {
  const raw = typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";
  const url = new URL(raw, "http://shop.invalid");
  // The URL resolves dot segments ("/.//evil.example" becomes "//evil.example"): check the result.
  if (url.origin !== "http://shop.invalid" || url.pathname.startsWith("//") || url.pathname.startsWith("/\\")) url.pathname = "/";
  url.searchParams.set("newsletter", outcome);
  return `${url.pathname}${url.search}#newsletter`;
}

async function handle(
  form: FormData,
  request: Request,
): Promise<{ result: NewsletterResult; refusal?: Pick<Refusal, "kind" | "retryAfterSeconds">; outcome: string }> {
  const parsed = NewsletterInput.safeParse({ email: String(form.get("email") ?? "") });
  if (!parsed.success)
    return { result: { ok: false, error: parsed.error.issues[0]!.message }, refusal: { kind: "bad_input" }, outcome: "invalid" };
  try {
    await subscribe(getDb(), parsed.data.email, { ip: clientIp(request) });
    return { result: { ok: true, message: SUBSCRIBED_MESSAGE }, outcome: "subscribed" };
  } catch (err) {
    if (err instanceof TooManyAttempts) return { result: { ok: false, error: err.message }, refusal: err, outcome: "limited" };
    logger.error({ err }, "newsletter subscription failed");
    return {
      result: { ok: false, error: "Could not subscribe right now. Please try again." },
      refusal: { kind: "failed" },
      outcome: "failed",
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const { result, refusal, outcome } = await handle(form, request);
  // The form adds js=1 once hydrated; a plain HTML post goes back to the page it came from.
  if (form.get("js") !== "1") return redirect(backTo(form.get("redirectTo"), outcome), 303);
  return refusal ? respond(refusal, result) : data(result);
}
