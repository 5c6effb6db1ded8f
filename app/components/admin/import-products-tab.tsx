import { FileUp, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Progress } from "~/components/ui/progress";
import { Skeleton } from "~/components/ui/skeleton";
import type { ImportJobDetail, ImportResult } from "~/lib/import-view";
import { DryRunSummary, ImportResultSummary } from "./import-summaries";
import { SoldSinceExportChoice, type StockChoice } from "./sold-since-export";
import type { JobView } from "~/lib/jobs-view";
import { readJobAnswer, useJobProgress } from "./use-job-progress";

const INVALID_FILE_TYPE = "Invalid file type: Please select a CSV file";
const CSV_TYPES = ["text/csv", "application/csv", "text/x-csv", "application/vnd.ms-excel", "text/plain", "application/octet-stream", ""];

function isCsv(file: File) {
  return file.type === "text/csv" || (/\.csv$/i.test(file.name) && CSV_TYPES.includes(file.type));
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

function importFailed(message?: string) {
  toast.error("Import failed", { description: message || "Unknown error occurred" });
}

/**
 * The Import Products tab (docs/rules/admin.md): pick a CSV, see what the dry run found (format, counts, first row
 * errors), confirm, and follow the server-side import's progress; the last result stays visible
 * on return, and an import keeps running if the page is closed.
 */
export function ImportProductsTab() {
  const [loaded, setLoaded] = useState(false);
  const [maxBytes, setMaxBytes] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"checking" | "starting" | null>(null);
  const [stockChoice, setStockChoice] = useState<StockChoice>("subtract");
  const inputRef = useRef<HTMLInputElement>(null);
  const [job, setJob] = useJobProgress(null, (finished) => {
    if (finished.status === "done") {
      const imported = (finished.result as ImportResult | null)?.imported ?? finished.succeeded;
      toast.success("Import completed", { description: `Successfully imported ${imported} products` });
    } else if (finished.status === "failed") importFailed(String(finished.result?.message ?? ""));
  });

  useEffect(() => {
    let cancelled = false;
    fetch("/admin/products/import", { headers: { accept: "application/json" } })
      .then(readJobAnswer)
      .then((answer) => {
        if (cancelled) return;
        if (answer.job) setJob(answer.job);
        if (answer.maxBytes) setMaxBytes(answer.maxBytes);
      })
      .catch(() => {})
      .finally(() => !cancelled && setLoaded(true));
    return () => {
      cancelled = true;
    };
  }, [setJob]);

  const choose = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    setFileError(null);
    if (picked && !isCsv(picked)) {
      setFile(null);
      setFileError(INVALID_FILE_TYPE);
      toast.error("Invalid file type", { description: "Please select a CSV file" });
      event.target.value = "";
      return;
    }
    if (picked && maxBytes && picked.size > maxBytes) {
      setFile(null);
      setFileError(`The file is larger than ${mb(maxBytes)}`);
      event.target.value = "";
      return;
    }
    setFile(picked);
  };

  const upload = async () => {
    if (!file) return;
    setBusy("checking");
    try {
      const res = await fetch("/admin/products/import", {
        method: "POST",
        body: file,
        headers: { "content-type": file.type || "text/csv", "x-file-name": encodeURIComponent(file.name), accept: "application/json" },
      });
      const answer = await readJobAnswer(res);
      if (!res.ok || !answer.job) {
        if (answer.error === INVALID_FILE_TYPE) setFileError(INVALID_FILE_TYPE);
        importFailed(answer.error);
        return;
      }
      setJob(answer.job);
      setStockChoice("subtract");
      setFile(null);
      if (inputRef.current) inputRef.current.value = "";
    } catch (err) {
      importFailed(err instanceof Error ? err.message : undefined);
    } finally {
      setBusy(null);
    }
  };

  const decide = async (intent: "confirm" | "discard") => {
    if (!job) return;
    setBusy(intent === "confirm" ? "starting" : null);
    try {
      const res = await fetch(`/admin/products/import/${job.id}`, { method: "POST", body: new URLSearchParams(intent === "confirm" ? { intent, stock: stockChoice } : { intent }), headers: { accept: "application/json" } });
      const answer = await readJobAnswer(res);
      if (!res.ok) importFailed(answer.error);
      setJob(answer.job ?? null);
    } catch (err) {
      importFailed(err instanceof Error ? err.message : undefined);
    } finally {
      setBusy(null);
    }
  };

  const detail = (job?.detail ?? {}) as ImportJobDetail;
  const awaitingConfirmation = job?.status === "pending" && detail.stage === "confirm" && detail.dryRun;
  const running = job?.status === "running";

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="h-fit">
        <CardHeader>
          <CardTitle>Import Products</CardTitle>
          <CardDescription>
            A CSV file with a title column, or a product export from WooCommerce or Shopify. You see what it would do before anything is written.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="import-file">CSV file</Label>
            <Input
              ref={inputRef}
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              onChange={choose}
              disabled={Boolean(busy) || running}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? "import-file-error" : undefined}
            />
            {fileError ? (
              <p id="import-file-error" role="alert" className="text-sm text-destructive">
                {fileError}
              </p>
            ) : maxBytes ? (
              <p className="text-xs text-muted-foreground">Up to {mb(maxBytes)}.</p>
            ) : null}
          </div>
          <Button onClick={upload} disabled={!file || Boolean(busy) || running} className="w-full">
            {busy === "checking" ? <Loader2 className="animate-spin" aria-hidden="true" /> : <FileUp aria-hidden="true" />}
            {busy === "checking" ? "Checking file..." : "Import Products"}
          </Button>
          <p className="text-xs text-muted-foreground">
            <a href="/admin/products/export" download className="font-medium text-primary underline-offset-4 hover:underline">
              Export products (CSV)
            </a>{" "}
            to edit them in a spreadsheet and import them back; products without a SKU are left out.
          </p>
        </CardContent>
      </Card>

      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>{awaitingConfirmation ? "Check before importing" : running ? "Importing" : "Last import"}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {!loaded ? (
            <Skeleton className="h-24 w-full" />
          ) : awaitingConfirmation ? (
            <>
              <DryRunSummary dryRun={detail.dryRun!} fileName={detail.fileName ?? "products.csv"} />
              {detail.dryRun!.soldSinceExport ? (
                <SoldSinceExportChoice sold={detail.dryRun!.soldSinceExport} choice={stockChoice} onChoose={setStockChoice} disabled={Boolean(busy)} />
              ) : null}
              <div className="flex flex-wrap gap-2">
                <Button onClick={() => decide("confirm")} disabled={Boolean(busy)}>
                  {busy === "starting" ? "Starting..." : `Confirm Import`}
                </Button>
                <Button variant="outline" onClick={() => decide("discard")} disabled={Boolean(busy)}>
                  Cancel
                </Button>
              </div>
            </>
          ) : job && (running || job.status === "pending") ? (
            <ImportProgress job={job} />
          ) : job?.status === "done" && job.result ? (
            <ImportResultSummary result={job.result as ImportResult} />
          ) : job?.status === "failed" ? (
            <p role="alert" className="text-destructive">
              Import failed: {String(job.result?.message ?? "Unknown error occurred")}
            </p>
          ) : (
            <p className="text-muted-foreground">No import yet. Choose a CSV file to start.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function ImportProgress({ job }: { job: JobView }) {
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between text-sm">
        <span>
          {job.processed.toLocaleString("en-US")} of {job.total.toLocaleString("en-US")} rows
        </span>
        <span className="font-medium tabular-nums">{job.percent}%</span>
      </div>
      <Progress value={job.percent} aria-label="Import progress" />
      <p className="text-xs text-muted-foreground">The import runs on the server: you can leave this page and come back.</p>
    </div>
  );
}
