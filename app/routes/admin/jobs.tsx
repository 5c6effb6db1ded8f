import { TryAgainButton } from "~/components/admin/failed-job-parts";
import { RowActionAnswer } from "~/components/admin/row-action";
import { UtcTime } from "~/components/admin/utc-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { TryAgainInput } from "~/lib/failed-job-input";
import { jobTaskName, type TryAgainAnswer } from "~/lib/failed-jobs-view";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { FailedJobError, failedJobsPage, tryFailedJobAgain } from "~/server/insight/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/jobs";

/** The newest failed jobs shown; the heading says how many there are in all. */
const SHOWN = 50;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return failedJobsPage(getDb(), SHOWN);
}

/** 'Try again' on one failed job: its tries back, due now (docs/decisions/0028). */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await readPublicForm(request);
  const input = TryAgainInput.safeParse({ intent: form.get("intent") ?? undefined, id: form.get("id") ?? undefined });
  if (!input.success) return respond<TryAgainAnswer>({ kind: "bad_input" }, { ok: false, message: input.error.issues[0]!.message });
  try {
    const job = await tryFailedJobAgain(getDb(), input.data.id);
    return { ok: true, message: `${jobTaskName(job.task)} will run again now.` } satisfies TryAgainAnswer;
  } catch (err) {
    if (!(err instanceof FailedJobError)) throw err;
    return respond<TryAgainAnswer>(err, { ok: false, message: err.message });
  }
}

export const meta: Route.MetaFunction = () => [
  { title: "Background jobs — Admin" },
  { name: "description", content: "Work the shop does in the background that failed every try: mails, refunds, clean-ups." },
  { name: "robots", content: "noindex" },
];

export default function BackgroundJobsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { jobs, total } = loaderData;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Background jobs</h1>
        <p className="text-muted-foreground">
          Work the shop does after a decision (mails, a paid order's follow-ups, refunds, periodic clean-ups) that failed every try it had,
          newest first. Fix the cause, then try it again.
          {total > 0 ? ` ${total} failed${total > jobs.length ? `; the newest ${jobs.length} are shown` : ""}.` : ""}
        </p>
      </div>
      <RowActionAnswer answer={actionData} />
      {jobs.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">No failed jobs: everything the shop did in the background went through.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <caption className="sr-only">Failed background jobs ({total})</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Task</TableHead>
                <TableHead>Failed (UTC)</TableHead>
                <TableHead>Tries</TableHead>
                <TableHead>Last error</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {jobs.map((j) => (
                <TableRow key={j.id}>
                  <TableCell className="max-w-xs">
                    <div className="grid gap-1">
                      <span className="font-medium">{j.name}</span>
                      <span className="text-xs text-muted-foreground">
                        {j.name === j.task ? "" : `${j.task} · `}job {j.id}
                      </span>
                    </div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <UtcTime iso={j.failedAt} />
                  </TableCell>
                  <TableCell className="tabular-nums">{j.attempts}</TableCell>
                  <TableCell>
                    {j.error ? (
                      <span className="line-clamp-2 max-w-md text-xs break-words text-destructive">{j.error}</span>
                    ) : (
                      <span className="text-xs text-muted-foreground">No error recorded</span>
                    )}
                  </TableCell>
                  <TableCell>
                    <TryAgainButton job={j} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}
