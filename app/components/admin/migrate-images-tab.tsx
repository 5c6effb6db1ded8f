import { ImageDown, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { Skeleton } from "~/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { JobView } from "~/lib/jobs-view";
import type { MigrationOutcome } from "~/lib/media-view";
import { readJobAnswer, useJobProgress } from "./use-job-progress";

function completeMessage(migrated: number, failed: number) {
  return `Successfully migrated ${migrated} images. ${failed} failed.`;
}

function announce(job: JobView) {
  if (job.status === "failed") {
    toast.error("Migration Failed", { description: String(job.result?.message ?? "Unknown error occurred") });
    return;
  }
  const { migrated, failed } = (job.result ?? { migrated: job.succeeded, failed: job.failed }) as MigrationOutcome;
  // Destructive style when any image failed (docs/rules/errors.md).
  if (failed > 0) toast.error("Migration Complete", { description: completeMessage(migrated, failed) });
  else toast.success("Migration Complete", { description: completeMessage(migrated, failed) });
}

/**
 * The Migrate Images tab (docs/rules/admin.md): copies every product image that lives on another website into the
 * shop's own storage, on the server, with a progress bar and a per-product result list.
 */
export function MigrateImagesTab() {
  const [loaded, setLoaded] = useState(false);
  const [starting, setStarting] = useState(false);
  const [job, setJob] = useJobProgress(null, announce);

  useEffect(() => {
    let cancelled = false;
    fetch("/admin/products/migrate-images", { headers: { accept: "application/json" } })
      .then(readJobAnswer)
      .then((answer) => !cancelled && answer.job && setJob(answer.job))
      .catch(() => {})
      .finally(() => !cancelled && setLoaded(true));
    return () => {
      cancelled = true;
    };
  }, [setJob]);

  const start = async () => {
    setStarting(true);
    try {
      const res = await fetch("/admin/products/migrate-images", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ overwrite: true }),
      });
      const answer = await readJobAnswer(res);
      if (!res.ok || !answer.job) toast.error("Migration Failed", { description: answer.error ?? "Unknown error occurred" });
      else {
        setJob(answer.job);
        if (answer.job.status === "done") announce(answer.job);
      }
    } catch (err) {
      toast.error("Migration Failed", { description: err instanceof Error ? err.message : "Unknown error occurred" });
    } finally {
      setStarting(false);
    }
  };

  const running = job?.status === "running";
  const outcome = job?.status === "done" ? (job.result as MigrationOutcome | null) : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Migrate Images</CardTitle>
        <CardDescription>
          Copies product images that are hosted on other websites into the shop&apos;s own storage, so they keep working when those websites change.
          Images that cannot be downloaded are left as they are.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Button onClick={start} disabled={starting || running}>
          {starting || running ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ImageDown aria-hidden="true" />}
          Migrate All Images
        </Button>
        {!loaded ? (
          <Skeleton className="h-16 w-full" />
        ) : job ? (
          <div className="space-y-4">
            <div className="space-y-2">
              <div className="flex items-center justify-between text-sm">
                <span>
                  {running
                    ? `${job.processed.toLocaleString("en-US")} of ${job.total.toLocaleString("en-US")} products`
                    : job.status === "done"
                      ? "Finished"
                      : "Stopped"}
                </span>
                <span className="font-medium tabular-nums">{job.percent}%</span>
              </div>
              <Progress value={job.percent} aria-label="Migration progress" />
            </div>
            {job.status === "failed" ? (
              <p role="alert" className="text-destructive">
                Migration Failed: {String(job.result?.message ?? "Unknown error occurred")}
              </p>
            ) : null}
            {outcome ? <MigrationResults outcome={outcome} /> : null}
          </div>
        ) : (
          <p className="text-muted-foreground">No migration yet.</p>
        )}
      </CardContent>
    </Card>
  );
}

function MigrationResults({ outcome }: { outcome: MigrationOutcome }) {
  return (
    <div className="space-y-3">
      <p role="status" className={outcome.failed > 0 ? "font-medium text-destructive" : "font-medium"}>
        Migration Complete: {completeMessage(outcome.migrated, outcome.failed)}
      </p>
      {outcome.results.length ? (
        <div className="max-h-96 overflow-y-auto rounded-md border" tabIndex={0} role="region" aria-label="Migration results">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Product</TableHead>
                <TableHead>Result</TableHead>
                <TableHead>Error</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {outcome.results.map((r) => (
                <TableRow key={r.productId}>
                  <TableCell className="font-medium">{r.productName}</TableCell>
                  <TableCell>{r.success ? <Badge variant="success">Migrated</Badge> : <Badge variant="destructive">Failed</Badge>}</TableCell>
                  <TableCell className="whitespace-normal text-sm text-muted-foreground">{r.error ?? ""}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </div>
  );
}
