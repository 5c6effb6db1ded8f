import { Link } from "react-router";
import { UtcTime } from "~/components/admin/utc-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { AUDIT_ACTOR_TEXT, AUDIT_KIND_TEXT, PRIVACY_LOG_PATH, PRIVACY_LOG_TITLE } from "~/lib/privacy-admin";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { listPrivacyAudit, PRIVACY_AUDIT_PAGE_SIZE } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/privacy";

/** The next page's key: the last row's time and id (`<iso>_<id>`); anything unreadable shows the first page. */
function readBefore(url: URL) {
  const raw = url.searchParams.get("before") ?? "";
  const cut = raw.lastIndexOf("_");
  if (cut < 0) return undefined;
  const createdAt = new Date(raw.slice(0, cut));
  const id = raw.slice(cut + 1);
  return Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id) ? undefined : { createdAt, id };
}

/**
 * The privacy log (docs/rules/personal-data.md, The owner's side): every export and erasure, newest
 * first — what was done, by whom, when, whose (an account's id or a keyed hash of an address) and
 * how much went. Never the data itself.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const rows = await listPrivacyAudit(getDb(), {
    before: readBefore(new URL(request.url)),
    limit: PRIVACY_AUDIT_PAGE_SIZE + 1,
  });
  const more = rows.length > PRIVACY_AUDIT_PAGE_SIZE;
  const shown = rows.slice(0, PRIVACY_AUDIT_PAGE_SIZE);
  const last = shown.at(-1);
  return {
    rows: shown,
    next: more && last ? `${last.createdAt}_${last.id}` : null,
  };
}

export const meta: Route.MetaFunction = () => [
  { title: `${PRIVACY_LOG_TITLE} — Admin` },
  {
    name: "description",
    content: "Every export and erasure of a person's data: who, when, whose and how much, never the data.",
  },
  { name: "robots", content: "noindex" },
];

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k.replace(/[_-]/g, " ")}: ${v}`)
    .join(", ") || "Nothing held";

export default function PrivacyLogPage({ loaderData }: Route.ComponentProps) {
  const { rows, next } = loaderData;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">{PRIVACY_LOG_TITLE}</h1>
        <p className="text-muted-foreground">
          Every copy of a person&apos;s data handed out and every erasure, newest first: what was done, by whom, when, and whose. An account is named
          by its id, an address by a keyed hash; the erased data itself is never kept.
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">No exports or erasures yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <caption className="sr-only">Exports and erasures of personal data, newest first</caption>
            <TableHeader>
              <TableRow>
                <TableHead>When (UTC)</TableHead>
                <TableHead>What</TableHead>
                <TableHead>Who</TableHead>
                <TableHead>Whose</TableHead>
                <TableHead>How much</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell className="whitespace-nowrap">
                    <UtcTime iso={r.createdAt} />
                  </TableCell>
                  <TableCell className="font-medium whitespace-nowrap">{AUDIT_KIND_TEXT[r.kind] ?? r.kind}</TableCell>
                  <TableCell className="break-all">
                    {r.actorKind === "admin"
                      ? (r.actorEmail ?? `An admin whose account is gone (${r.actorId})`)
                      : (AUDIT_ACTOR_TEXT[r.actorKind] ?? r.actorKind)}
                  </TableCell>
                  <TableCell>
                    <code className="text-xs break-all">{r.subjectRef}</code>
                  </TableCell>
                  <TableCell className="text-xs">{countsText(r.counts)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {next ? (
        <p>
          <Link to={`${PRIVACY_LOG_PATH}?before=${encodeURIComponent(next)}`} className="text-primary hover:underline">
            Older entries
          </Link>
        </p>
      ) : null}
    </div>
  );
}
