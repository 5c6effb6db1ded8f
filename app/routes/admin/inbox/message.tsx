import { ArrowLeft, Check, Mail, RotateCcw } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { UtcTime } from "~/components/admin/utc-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { refuse } from "~/routes/_edge/errors.server";
import { invariantResponse, requireAdmin } from "~/routes/_edge/guards.server";
import { getContactMessage, setMessageHandled } from "~/server/content/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/message";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const message = await getContactMessage(getDb(), params.messageId);
  invariantResponse(message, "Message not found");
  return {
    message: {
      ...message,
      createdAt: message.createdAt.toISOString(),
      handledAt: message.handledAt?.toISOString() ?? null,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "handled" && intent !== "open") refuse({ kind: "bad_input", message: "Unknown action" });
  const found = await setMessageHandled(getDb(), params.messageId, intent === "handled");
  invariantResponse(found, "Message not found");
  return { ok: true };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.message.subject ?? "Message"} — Inbox — Admin` },
  { name: "description", content: "A message sent through the contact page." },
  { name: "robots", content: "noindex" },
];

export default function InboxMessagePage({ loaderData }: Route.ComponentProps) {
  const { message } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const reply = `mailto:${encodeURIComponent(message.email)}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`;
  return (
    <div className="grid max-w-3xl gap-6 p-4 md:p-6">
      <Button asChild variant="ghost" className="w-fit">
        <Link to="/admin/inbox">
          <ArrowLeft aria-hidden="true" />
          Back to Inbox
        </Link>
      </Button>
      <article className="grid gap-4 rounded-lg border p-6">
        <header className="grid gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold break-words">{message.subject}</h1>
            {message.handled ? <Badge variant="success">Handled</Badge> : <Badge variant="warning">Open</Badge>}
          </div>
          <dl className="grid gap-1 text-sm text-muted-foreground sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-medium text-foreground">From</dt>
            <dd className="break-all">
              {message.name} &lt;{message.email}&gt;
            </dd>
            <dt className="font-medium text-foreground">Received</dt>
            <dd>
              <UtcTime iso={message.createdAt} withZone />
            </dd>
            {message.handledAt ? (
              <>
                <dt className="font-medium text-foreground">Handled</dt>
                <dd>
                  <UtcTime iso={message.handledAt} withZone />
                </dd>
              </>
            ) : null}
          </dl>
        </header>
        {/* Plain text, escaped by React: whatever the sender typed is shown, never run. */}
        <div className="rounded-md bg-muted/50 p-4 text-sm break-words whitespace-pre-wrap">{message.message}</div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={reply}>
              <Mail aria-hidden="true" />
              Reply by email
            </a>
          </Button>
          <Form method="post">
            <input type="hidden" name="intent" value={message.handled ? "open" : "handled"} />
            <Button type="submit" disabled={busy}>
              {message.handled ? <RotateCcw aria-hidden="true" /> : <Check aria-hidden="true" />}
              {message.handled ? "Mark as open" : "Mark as handled"}
            </Button>
          </Form>
        </div>
      </article>
    </div>
  );
}
