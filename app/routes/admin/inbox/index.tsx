import { Link } from "react-router";
import { Pagination } from "~/components/admin/pagination";
import { UtcTime } from "~/components/admin/utc-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { INBOX_PAGE_SIZE, type InboxFilter, listContactMessages } from "~/server/content/index.server";
import { getDb, pageParam } from "~/server/platform/http/index.server";
import type { Route } from "./+types/index";

const FILTERS: { value: InboxFilter; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "handled", label: "Handled" },
  { value: "all", label: "All" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filter = (FILTERS.find((f) => f.value === params.get("status"))?.value ?? "open") as InboxFilter;
  const page = pageParam(params);
  const result = await listContactMessages(getDb(), { filter, page });
  return {
    filter,
    page,
    pages: Math.max(1, Math.ceil(result.total / INBOX_PAGE_SIZE)),
    total: result.total,
    openCount: result.openCount,
    messages: result.messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Inbox — Admin — Linen & Loft" },
  { name: "description", content: "Messages sent through the contact page." },
  { name: "robots", content: "noindex" },
];

const EMPTY: Record<InboxFilter, string> = {
  open: "No open messages. Everything has been handled.",
  handled: "No handled messages yet.",
  all: "No messages yet. Messages sent from the contact page appear here.",
};

export default function InboxPage({ loaderData }: Route.ComponentProps) {
  const { messages, filter, page, pages, total, openCount } = loaderData;
  const link = (p: { status?: InboxFilter; page?: number }) =>
    `?status=${p.status ?? filter}${p.page && p.page > 1 ? `&page=${p.page}` : ""}`;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Inbox</h1>
        <p className="text-muted-foreground">Messages from the contact page, newest first. {openCount} open.</p>
      </div>
      <nav aria-label="Filter messages" className="flex flex-wrap gap-2">
        {FILTERS.map((f) => (
          <Button key={f.value} asChild size="sm" variant={f.value === filter ? "default" : "outline"}>
            <Link to={link({ status: f.value })} aria-current={f.value === filter ? "page" : undefined}>
              {f.label}
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
              {FILTERS.find((f) => f.value === filter)!.label} messages ({total})
            </caption>
            <TableHeader>
              <TableRow>
                <TableHead>From</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Received (UTC)</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {messages.map((m) => (
                <TableRow key={m.id}>
                  <TableCell className="max-w-48">
                    <span className={cn("block truncate", !m.handled && "font-semibold")}>{m.name}</span>
                    <span className="block truncate text-xs text-muted-foreground">{m.email}</span>
                  </TableCell>
                  <TableCell className="max-w-md">
                    <Link to={`/admin/inbox/${m.id}`} className="font-medium text-primary hover:underline">
                      {m.subject}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {m.handled ? <Badge variant="success">Handled</Badge> : <Badge variant="warning">Open</Badge>}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <UtcTime iso={m.createdAt} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination label="Inbox pages" page={page} pages={pages} href={(p) => link({ page: p })} />
    </div>
  );
}
