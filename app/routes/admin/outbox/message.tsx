import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { MailHtmlFrame, MailState, ResendButton } from "~/components/admin/outbox-parts";
import { RowActionAnswer } from "~/components/admin/row-action";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { linkify } from "~/lib/linkify";
import { invariantResponse, requireAdmin } from "~/routes/_edge/guards.server";
import { outboxMail } from "~/server/content/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/message";
import { resendAction } from "./resend.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const message = await outboxMail(getDb(), params.id);
  invariantResponse(message, "Mail not found");
  return { message };
}

export async function action({ request }: Route.ActionArgs) {
  return resendAction(request);
}

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: `${d?.message.subject ?? "Mail"} — Outbox — Admin` },
  { name: "description", content: "One mail from the shop's outbox." },
];

const timeFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/** The mail's plain text, as React text nodes (never HTML); only http(s) addresses become links. */
function MailText({ text }: { text: string }) {
  return (
    <div className="font-mono text-sm break-words whitespace-pre-wrap">
      {linkify(text).map((p, i) =>
        p.kind === "link" ? (
          <a key={i} href={p.href} rel="noreferrer noopener" className="break-all text-primary underline">
            {p.value}
          </a>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </div>
  );
}

export default function OutboxMessagePage({ loaderData, actionData }: Route.ComponentProps) {
  const m = loaderData.message;
  return (
    <div className="grid max-w-3xl gap-4 p-4 md:p-6">
      <Link to="/admin/outbox" className="flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Outbox
      </Link>
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold break-words">{m.subject || "(no subject)"}</h1>
          </CardTitle>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">To</dt>
            <dd className="break-all">{m.to}</dd>
            <dt className="text-muted-foreground">From</dt>
            <dd className="break-all">{m.from}</dd>
            <dt className="text-muted-foreground">Time</dt>
            <dd>
              <time dateTime={m.createdAt}>{timeFormat.format(new Date(m.createdAt))} UTC</time>
            </dd>
            <dt className="text-muted-foreground">Kind</dt>
            <dd>
              <Badge variant="outline">{m.kind}</Badge>
            </dd>
            <dt className="text-muted-foreground">State</dt>
            <dd className="flex flex-wrap items-start gap-3">
              <MailState mail={m} detailed />
              <ResendButton mail={m} />
            </dd>
          </dl>
          <RowActionAnswer answer={actionData} />
        </CardHeader>
        <CardContent className="grid gap-6">
          <p className="text-xs text-muted-foreground">
            Links in account mails sign in whoever opens them: open them only for a shopper you are helping, in a private window.
          </p>
          {m.html ? (
            <section aria-labelledby="mail-html" className="grid gap-2">
              <h2 id="mail-html" className="text-lg font-semibold">
                As the recipient sees it
              </h2>
              <MailHtmlFrame html={m.html} title={`The mail "${m.subject}" as HTML`} />
            </section>
          ) : null}
          <section aria-labelledby="mail-text" className="grid gap-2">
            <h2 id="mail-text" className="text-lg font-semibold">
              Plain text
            </h2>
            <MailText text={m.text} />
          </section>
        </CardContent>
      </Card>
    </div>
  );
}
