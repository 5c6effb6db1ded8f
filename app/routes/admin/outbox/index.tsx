import { Link } from "react-router";
import { Pagination } from "~/components/admin/pagination";
import { UtcTime } from "~/components/admin/utc-time";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/db/client.server";
import { pageParam } from "~/server/http/page-param.server";
import { listOutbox } from "~/server/mail/outbox.server";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url).searchParams);
  return { ...(await listOutbox(getDb(), page)), page };
}

export const meta: Route.MetaFunction = () => [
  { title: "Outbox — Admin" },
  { name: "description", content: "Mail the shop has sent or kept: confirmations, password resets, order mails." },
];

export default function OutboxPage({ loaderData }: Route.ComponentProps) {
  const { messages, page, pages, total } = loaderData;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Outbox</h1>
        <p className="text-muted-foreground">
          Every mail the shop sends, newest first ({total}). Without SMTP configured, mail stays here instead of going out.
        </p>
      </div>
      {messages.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">No mail yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>To</TableHead>
                <TableHead>Subject</TableHead>
                <TableHead className="hidden sm:table-cell">Kind</TableHead>
                <TableHead>Time (UTC)</TableHead>
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
                    {m.error ? (
                      <Badge variant="destructive" className="ml-2">
                        Not delivered
                      </Badge>
                    ) : null}
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <Badge variant="outline">{m.kind}</Badge>
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
      <Pagination label="Outbox pages" page={page} pages={pages} href={(p) => `?page=${p}`} />
    </div>
  );
}
