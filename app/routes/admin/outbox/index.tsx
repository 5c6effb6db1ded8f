import { Link } from "react-router";
import { MailState, ResendButton } from "~/components/admin/outbox-parts";
import { RowActionAnswer } from "~/components/admin/row-action";
import { Pagination } from "~/components/admin/pagination";
import { UtcTime } from "~/components/admin/utc-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { OUTBOX_FILTER_LABELS, OUTBOX_FILTERS, type OutboxFilter } from "~/lib/outbox-view";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { outboxPage } from "~/server/content/index.server";
import { getDb, pageParam } from "~/server/platform/http/index.server";
import type { Route } from "./+types/index";
import { resendAction } from "./resend.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  return outboxPage(getDb(), pageParam(params), params.get("state"));
}

export async function action({ request }: Route.ActionArgs) {
  return resendAction(request);
}

export const meta: Route.MetaFunction = () => [
  { title: "Outbox — Admin" },
  { name: "description", content: "Mail the shop has sent or kept: confirmations, password resets, order mails." },
];

const EMPTY: Record<OutboxFilter, string> = {
  all: "No mail yet.",
  sent: "No mail sent yet.",
  failed: "No failed mail: everything went out.",
  retrying: "No mail waiting for another try.",
  given_up: "No mail given up.",
  queued: "No mail waiting to be sent.",
};

export default function OutboxPage({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, page, pages, total, filter, failed } = loaderData;
  const link = (p: { state?: OutboxFilter; page?: number }) => {
    const state = p.state ?? filter;
    const q = new URLSearchParams();
    if (state !== "all") q.set("state", state);
    if (p.page && p.page > 1) q.set("page", String(p.page));
    return `?${q}`;
  };
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Outbox</h1>
        <p className="text-muted-foreground">
          Every mail the shop sends, newest first, with what became of it. Without SMTP configured, mail stays here instead of going out.
          {failed > 0 ? ` ${failed} failed and not delivered yet.` : ""}
        </p>
      </div>
      <RowActionAnswer answer={actionData} />
      <nav aria-label="Filter by state" className="flex flex-wrap gap-2">
        {OUTBOX_FILTERS.map((f) => (
          <Button key={f} asChild size="sm" variant={f === filter ? "default" : "outline"}>
            <Link to={link({ state: f, page: 1 })} aria-current={f === filter ? "page" : undefined}>
              {OUTBOX_FILTER_LABELS[f]}
              {f === "failed" && failed > 0 ? ` (${failed})` : ""}
            </Link>
          </Button>
        ))}
      </nav>
      {messages.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">{EMPTY[filter]}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <caption className="sr-only">
              {OUTBOX_FILTER_LABELS[filter]} mail ({total})
            </caption>
            <TableHeader>
              <TableRow>
                <TableHead>To</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead className="hidden sm:table-cell">Kind</TableHead>
                <TableHead>State</TableHead>
                <TableHead>Time (UTC)</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {messages.map((m) => (
                <TableRow key={m.id}>
                  <TableCell className="max-w-48 truncate">{m.to}</TableCell>
                  <TableCell className="max-w-md">
                    <Link to={`/admin/outbox/${m.id}`} className="font-medium text-primary hover:underline">
                      {m.subject || "(no subject)"}
                    </Link>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <Badge variant="outline">{m.kind}</Badge>
                  </TableCell>
                  <TableCell>
                    <MailState mail={m} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <UtcTime iso={m.createdAt} />
                  </TableCell>
                  <TableCell>
                    <ResendButton mail={m} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination label="Outbox pages" page={page} pages={pages} href={(p) => link({ page: p })} />
    </div>
  );
}
