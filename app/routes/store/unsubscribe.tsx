import { data, Form, useActionData, useNavigation } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { MailLinkCard } from "~/components/store/mail-link-card";
import {
  BAD_UNSUBSCRIBE_LINK_MESSAGE,
  UNSUBSCRIBED_REMINDERS_MESSAGE,
} from "~/lib/abandoned-checkout";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond, responseInit } from "~/routes/_edge/errors.server";
import { getDb } from "~/server/platform/http/index.server";
import { describeOptOutLink, optOut } from "~/server/commerce/index.server";
import type { Route } from "./+types/unsubscribe";

/**
 * /unsubscribe?e=<email>&t=<token>: the reminder mail's unsubscribe link (docs/rules/after-sale.md,
 * The abandoned-checkout reminder). Opening it only shows a button, because mail programs open
 * links to scan them; pressing it (a POST) stops the reminders for that address, without signing
 * in. A mail program's one-click unsubscribe (RFC 8058) posts here too, with the link's own query.
 * A bad or tampered link gets its message (400), never an error page.
 */
const PRIVATE = { "Cache-Control": "private, no-store" };

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Unsubscribe — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
  // The link carries its token: no Referer leaves the site. (Not no-referrer: with it a browser
  // sends "Origin: null" on the button's plain form post, which the same-origin check refuses.)
  { name: "referrer", content: "same-origin" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const email = url.searchParams.get("e") ?? "";
  const token = url.searchParams.get("t") ?? "";
  const link = await describeOptOutLink(getDb(), email, token);
  // A link that does not work is a refusal (400); the page says so instead of showing the form.
  return data({ email, token, ...link }, link.valid ? { headers: PRIVATE } : responseInit({ kind: "bad_input" }, PRIVATE));
}

export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const form = await readPublicForm(request);
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : (url.searchParams.get(name) ?? "");
  };
  const done = await optOut(getDb(), field("e"), field("t"));
  if (!done)
    return respond(
      { kind: "bad_input" },
      { ok: false as const, message: BAD_UNSUBSCRIBE_LINK_MESSAGE },
      PRIVATE,
    );
  return data(
    { ok: true as const, message: UNSUBSCRIBED_REMINDERS_MESSAGE },
    { headers: PRIVATE },
  );
}

export default function UnsubscribePage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  let title: string;
  let body: React.ReactNode;
  if (result) {
    title = result.ok ? "Unsubscribed" : "This link does not work";
    body = <p role={result.ok ? "status" : "alert"}>{result.message}</p>;
  } else if (!loaderData.valid) {
    title = "This link does not work";
    body = <p role="alert">{BAD_UNSUBSCRIBE_LINK_MESSAGE}</p>;
  } else if (loaderData.optedOut) {
    title = "Unsubscribed";
    body = <p role="status">{UNSUBSCRIBED_REMINDERS_MESSAGE}</p>;
  } else {
    title = "Unsubscribe from reminders";
    body = (
      <Form method="post" className="grid gap-4">
        <p>
          Stop the reminders about unfinished checkouts to{" "}
          <strong className="break-all">{loaderData.email}</strong>. Order
          confirmations and shipping updates still arrive.
        </p>
        <input type="hidden" name="e" value={loaderData.email} />
        <input type="hidden" name="t" value={loaderData.token} />
        <Button type="submit" disabled={busy} variant="outline">
          {busy ? "Unsubscribing..." : "Unsubscribe"}
        </Button>
      </Form>
    );
  }
  return <MailLinkCard title={title}>{body}</MailLinkCard>;
}
