/** What each benchmark part hands to the report. */
import os from "node:os";

export type Check = {
  /** What the issue asks for, e.g. "storefront p95 < 50 ms". */
  target: string;
  measured: string;
  /** null: not measured in this run (the note says why). */
  met: boolean | null;
  note?: string;
};

export type PartStatus = "ok" | "partial" | "skipped" | "failed";

export type PartResult = {
  id: string;
  title: string;
  status: PartStatus;
  /** Why something was skipped or left out, in words a reader can act on. */
  notes: string[];
  checks: Check[];
  data: unknown;
  markdown: string;
  seconds: number;
  /** The machine's 1-minute load average as the part began and as it ended (other work shows here). */
  loadAverage: { start: number; end: number };
};

export class Part {
  notes: string[] = [];
  checks: Check[] = [];
  md: string[] = [];
  data: Record<string, unknown> = {};
  status: PartStatus = "ok";
  private started = Date.now();
  private loadAtStart = loadAverage1m();
  constructor(
    readonly id: string,
    readonly title: string,
  ) {}

  note(text: string, status?: PartStatus) {
    this.notes.push(text);
    if (status === "failed" || (status === "partial" && this.status === "ok") || (status === "skipped" && this.status !== "failed")) {
      this.status = status;
    }
  }

  check(c: Check) {
    this.checks.push(c);
  }

  result(): PartResult {
    return {
      id: this.id,
      title: this.title,
      status: this.status,
      notes: this.notes,
      checks: this.checks,
      data: this.data,
      markdown: this.md.join("\n"),
      seconds: Math.round((Date.now() - this.started) / 100) / 10,
      loadAverage: { start: this.loadAtStart, end: loadAverage1m() },
    };
  }
}

function loadAverage1m() {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

export function skipped(id: string, title: string, reason: string): PartResult {
  const p = new Part(id, title);
  p.note(reason, "skipped");
  return p.result();
}

/** A markdown table; cells are escaped for the pipe character. */
export function table(head: string[], rows: (string | number)[][], align: "numbers" | "left" = "numbers"): string {
  const cell = (v: string | number) => String(v).replace(/\|/g, "\\|");
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 || align === "left" ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

export const mark = (met: boolean | null) => (met === null ? "—" : met ? "✅" : "❌");
