import { Badge } from "~/components/ui/badge";
import type { ImportDryRun, ImportResult } from "~/lib/import-view";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** A scrollable list of "Row N: message" lines, with how many were left out. */
export function RowMessages({ title, lines, total, tone }: { title: string; lines: string[]; total: number; tone: "error" | "note" }) {
  if (total === 0) return null;
  const id = `import-${tone}-heading`;
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className={tone === "error" ? "font-medium text-destructive" : "font-medium"}>
        {title} ({total.toLocaleString("en-US")})
      </h3>
      <ul
        className="max-h-60 space-y-1 overflow-y-auto rounded-md border p-3 text-sm"
        tabIndex={0}
        aria-label={title}
      >
        {lines.map((line, i) => (
          <li key={i} className={tone === "error" ? "text-destructive" : "text-muted-foreground"}>
            {line}
          </li>
        ))}
      </ul>
      {total > lines.length ? (
        <p className="text-xs text-muted-foreground">and {plural(total - lines.length, "more line")} not shown</p>
      ) : null}
    </section>
  );
}

export function FormatBadge({ label }: { label: string }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">Detected format:</span>
      <Badge variant="info">{label}</Badge>
    </p>
  );
}

function Counts({ items }: { items: [string, number][] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([label, n]) => (
        <div key={label} className="rounded-md border p-3">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-xl font-semibold tabular-nums">{n.toLocaleString("en-US")}</dd>
        </div>
      ))}
    </dl>
  );
}

export function DryRunSummary({ dryRun, fileName }: { dryRun: ImportDryRun; fileName: string }) {
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <span className="font-medium">{fileName}</span>: {plural(dryRun.rows, "row")} checked. Nothing has been written yet.
      </p>
      <FormatBadge label={dryRun.formatLabel} />
      <Counts
        items={[
          ["Would create", dryRun.create],
          ["Would update", dryRun.update],
          ["Would skip", dryRun.skip],
          ["Variations merged", dryRun.merged],
        ]}
      />
      {dryRun.newCategories.length ? (
        <p className="text-sm text-muted-foreground">New categories: {dryRun.newCategories.join(", ")}</p>
      ) : null}
      <RowMessages title="Errors" lines={dryRun.errors} total={dryRun.errorCount} tone="error" />
      <RowMessages title="Notes" lines={dryRun.notes} total={dryRun.noteCount} tone="note" />
    </div>
  );
}

export function ImportResultSummary({ result }: { result: ImportResult }) {
  return (
    <div className="space-y-4">
      <p role="status" className="font-medium">
        Import completed: Successfully imported {result.imported} products
      </p>
      <FormatBadge label={result.formatLabel} />
      <Counts
        items={[
          ["Created", result.created],
          ["Updated", result.updated],
          ["Skipped", result.skipped],
          ["Variations merged", result.merged],
        ]}
      />
      {result.newCategories.length ? (
        <p className="text-sm text-muted-foreground">Categories created: {result.newCategories.join(", ")}</p>
      ) : null}
      <RowMessages title="Errors" lines={result.errors} total={result.errorCount} tone="error" />
      <RowMessages title="Notes" lines={result.notes} total={result.noteCount} tone="note" />
    </div>
  );
}
