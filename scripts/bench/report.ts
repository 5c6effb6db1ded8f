import fs from "node:fs";
import path from "node:path";
import type { CatalogueStats } from "./catalog";
import type { Commit, Machine } from "./machine";
import { FULL, type BenchOptions } from "./options";
import { mark, table, type PartResult } from "./part";

export type Report = {
  startedAt: Date;
  seconds: number;
  command: string;
  commit: Commit;
  machine: Machine;
  database: "embedded" | "external";
  opts: BenchOptions;
  dataset: CatalogueStats | null;
  parts: PartResult[];
};

const STATUS: Record<PartResult["status"], string> = { ok: "measured", partial: "partly measured", skipped: "skipped", failed: "failed" };

function header(r: Report): string[] {
  const m = r.machine;
  const lines = ["# Benchmark results", ""];
  if (!r.opts.fullSize) {
    lines.push(
      `> **Not a full-size run** (${r.opts.products.toLocaleString("en-US")} products, ${r.opts.requests} requests per route, load ${r.opts.loadConnections.join("/")} connections × ${r.opts.loadSeconds} s, ${r.opts.lighthouseRuns} Lighthouse run(s)). The targets are defined for ${FULL.products.toLocaleString("en-US")} products and the full settings: these figures are for development only.`,
      "",
    );
  }
  lines.push(
    `- **Date:** ${r.startedAt.toISOString().replace("T", " ").slice(0, 16)} UTC (${Math.round(r.seconds / 60)} min run)`,
    `- **Commit:** \`${r.commit.short}\` ${r.commit.subject}${r.commit.dirty ? " — **with uncommitted changes in the app**" : ""}`,
    `- **Machine:** ${m.cpu}, ${m.cores} cores, ${m.ramGb} GB RAM, ${m.os}; load average at start ${m.loadAverageAtStart.join(" / ")}`,
    `- **Software:** Node ${m.node}, PostgreSQL ${m.postgres} (${r.database === "embedded" ? "embedded, throwaway" : "DATABASE_URL server, fresh database"}), ${m.chromium}`,
    r.dataset
      ? `- **Data:** ${r.dataset.products.toLocaleString("en-US")} products (${r.dataset.activeProducts.toLocaleString("en-US")} active; ${r.dataset.demoProducts} from the demo seed, the rest generated), ${r.dataset.posts.toLocaleString("en-US")} blog posts (${r.dataset.publishedPosts.toLocaleString("en-US")} published); loaded in ${r.dataset.seconds} s`
      : "- **Data:** not generated (no part needed the catalogue)",
    `- **Command:** \`${r.command}\``,
    "",
    `What each figure means: [bench/README.md](${path.relative(r.opts.outDir, path.resolve("bench/README.md"))}).`,
    "",
  );
  return lines;
}

export function renderMarkdown(r: Report): string {
  const lines = header(r);
  const checks = r.parts.flatMap((p) => p.checks.map((c) => ({ ...c, part: p.title })));
  lines.push("## Targets", "", table(["Target", "Measured", "Met", "Note"], checks.map((c) => [c.target, c.measured, mark(c.met), c.note ?? ""]), "left"), "");
  const notes = r.parts.filter((p) => p.notes.length);
  if (notes.length) {
    lines.push("## Skipped or incomplete", "");
    for (const p of notes) for (const n of p.notes) lines.push(`- **${p.title}:** ${n}`);
    lines.push("");
  }
  for (const p of r.parts) {
    const load = p.loadAverage ? `; load average ${p.loadAverage.start} at its start, ${p.loadAverage.end} at its end (${r.machine.cores} cores)` : "";
    lines.push(`## ${p.title}`, "", `_${STATUS[p.status]} in ${p.seconds} s${load}_`, "");
    if (p.markdown) lines.push(p.markdown, "");
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n");
}

export function writeReport(r: Report, log: (m: string) => void) {
  fs.mkdirSync(r.opts.outDir, { recursive: true });
  const json = {
    date: r.startedAt.toISOString(),
    seconds: r.seconds,
    command: r.command,
    commit: r.commit,
    machine: r.machine,
    database: r.database,
    fullSize: r.opts.fullSize,
    options: { ...r.opts, parts: [...r.opts.parts], outDir: undefined },
    dataset: r.dataset,
    targets: r.parts.flatMap((p) => p.checks.map((c) => ({ part: p.id, ...c }))),
    parts: r.parts.map(({ markdown: _md, ...rest }) => rest),
  };
  const md = path.join(r.opts.outDir, "results.md");
  fs.writeFileSync(md, renderMarkdown(r));
  fs.writeFileSync(path.join(r.opts.outDir, "results.json"), `${JSON.stringify(json, null, 2)}\n`);
  log(`Wrote ${path.relative(process.cwd(), md) || md} and results.json`);
}
