import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { MailLinkCard } from "~/components/store/mail-link-card";
import { CONFIRMED_MESSAGE, UNSUBSCRIBED_MESSAGE } from "~/lib/newsletter";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { invariantResponse } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { confirmSubscription, describeLink, type LinkStep, unsubscribe } from "~/server/content/index.server";
import type { Route } from "./+types/newsletter-link";

/**
 * /newsletter/confirm and /newsletter/unsubscribe: the links in the newsletter's mails. Opening
 * one only shows a button (mail programs open links to scan them); pressing it confirms or
 * unsubscribes, without signing in. A mail program's one-click unsubscribe (RFC 8058) posts here
 * too, with the link's own query.
 */
function stepOf(params: { step?: string }): LinkStep {
  const step = params.step;
  invariantResponse(step === "confirm" || step === "unsubscribe");
  return step;
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  {
    title: `${params.step === "confirm" ? "Confirm your subscription" : "Unsubscribe"} — ${brandFrom(matches)}`,
  },
  { name: "robots", content: "noindex" },
  // The link carries its token: no Referer leaves the site. (Not no-referrer: with it a browser
  // sends "Origin: null" on the button's plain form post, which same-origin.server.ts refuses.)
  { name: "referrer", content: "same-origin" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const step = stepOf(params);
  const url = new URL(request.url);
  const id = url.searchParams.get("id") ?? "";
  const token = url.searchParams.get("token") ?? "";
  const link = await describeLink(getDb(), step, id, token);
  return { step, id, token, ...link };
}

const INVALID: Record<LinkStep, string> = {
  confirm:
    "This confirmation link is not valid or no longer works. Subscribe again from the box at the bottom of any page.",
  unsubscribe:
    "This unsubscribe link is not valid. Use the link from one of our newsletter mails.",
};

export async function action({ request, params }: Route.ActionArgs) {
  const step = stepOf(params);
  const url = new URL(request.url);
  const form = await readPublicForm(request);
  const field = (name: string) =>
    String(form.get(name) ?? url.searchParams.get(name) ?? "");
  const id = field("id");
  const token = field("token");
  const done =
    step === "confirm"
      ? await confirmSubscription(getDb(), id, token)
      : await unsubscribe(getDb(), id, token);
  if (!done)
    return respond(
      { kind: "bad_input" },
      { ok: false as const, message: INVALID[step] },
    );
  return data({
    ok: true as const,
    message: step === "confirm" ? CONFIRMED_MESSAGE : UNSUBSCRIBED_MESSAGE,
  });
}

export default function NewsletterLinkPage({
  loaderData,
}: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { step, valid } = loaderData;
  const email = valid ? loaderData.email : null;
  let title: string;
  let body: React.ReactNode;
  if (result) {
    title = result.ok
      ? step === "confirm"
        ? "Subscription confirmed"
        : "Unsubscribed"
      : "This link does not work";
    body = <p role={result.ok ? "status" : "alert"}>{result.message}</p>;
  } else if (!valid) {
    title = "This link does not work";
    body = <p role="alert">{INVALID[step]}</p>;
  } else if (step === "confirm" && loaderData.confirmed) {
    title = "Subscription confirmed";
    body = <p role="status">{CONFIRMED_MESSAGE}</p>;
  } else if (step === "unsubscribe" && !email) {
    title = "Unsubscribed";
    body = <p role="status">{UNSUBSCRIBED_MESSAGE}</p>;
  } else {
    title =
      step === "confirm"
        ? "Confirm your subscription"
        : "Unsubscribe from the newsletter";
    body = (
      <Form method="post" className="grid gap-4">
        <p>
          {step === "confirm"
            ? "Get our newsletter at "
            : "Stop the newsletter to "}
          <strong className="break-all">{email}</strong>.
        </p>
        <input type="hidden" name="id" value={loaderData.id} />
        <input type="hidden" name="token" value={loaderData.token} />
        <Button
          type="submit"
          disabled={busy}
          variant={step === "confirm" ? "default" : "outline"}
        >
          {step === "confirm"
            ? busy
              ? "Confirming..."
              : "Confirm subscription"
            : busy
              ? "Unsubscribing..."
              : "Unsubscribe"}
        </Button>
      </Form>
    );
  }
  return <MailLinkCard title={title}>{body}</MailLinkCard>;
}
