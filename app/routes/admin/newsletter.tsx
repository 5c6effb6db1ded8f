import { Download } from "lucide-react";
import { Link } from "react-router";
import { Pagination } from "~/components/admin/pagination";
import { UtcTime } from "~/components/admin/utc-time";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb, pageParam } from "~/server/platform/http/index.server";
import { listSubscriptions, NEWSLETTER_PAGE_SIZE } from "~/server/content/index.server";
import type { Route } from "./+types/newsletter";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url).searchParams);
  const { subscriptions, total } = await listSubscriptions(getDb(), page);
  return {
    page,
    pages: Math.max(1, Math.ceil(total / NEWSLETTER_PAGE_SIZE)),
    total,
    subscriptions: subscriptions.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Newsletter — Admin — Linen & Loft" },
  { name: "description", content: "Newsletter subscriptions from the footer box, with a CSV export." },
  { name: "robots", content: "noindex" },
];

export default function NewsletterPage({ loaderData }: Route.ComponentProps) {
  const { subscriptions, total, page, pages } = loaderData;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Newsletter</h1>
          <p className="text-muted-foreground">
            {total === 1 ? "1 subscriber" : `${total} subscribers`}, newest first.
          </p>
        </div>
        {/* A plain link: the browser downloads the file (reloadDocument skips client routing). */}
        <Button asChild variant="outline">
          <Link to="/admin/newsletter/export" reloadDocument download>
            <Download aria-hidden="true" />
            Export CSV
          </Link>
        </Button>
      </div>
      {subscriptions.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">
          No subscribers yet. Addresses entered in the footer's newsletter box appear here.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Subscribed (UTC)</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {subscriptions.map((s) => (
                <TableRow key={s.id}>
                  <TableCell className="max-w-xs truncate">{s.email}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    <UtcTime iso={s.createdAt} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination label="Subscriber pages" page={page} pages={pages} href={(p) => `?page=${p}`} />
    </div>
  );
}
