import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHROME_FLAGS, CHROME_PATH } from "./browser";
import { runCommand } from "./shop";
import { median } from "./stats";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];
export type Scores = Record<Category, number>;
/** The first-paint targets (docs/decisions/0021-first-paint.md): performance 99 or more (median of 3 runs), the content audits all passed. */
export const SCORE_BUDGETS: Scores = { performance: 99, accessibility: 100, "best-practices": 100, seo: 100 };
/** A storefront page's simulated First Contentful Paint at most this multiple of the bare React Router page's. */
export const FCP_BUDGET_RATIO = 1.15;

export type LighthouseRun = {
  scores: Scores;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** "<category>: <audit title>" for each audit that cost points. */
  failing: string[];
  /** The same audits as "<category>:<audit id>", for checks that expect one (e.g. "seo:is-crawlable"). */
  failingIds: string[];
};
export type PageAudit = {
  url: string;
  runs: LighthouseRun[];
  median: Scores;
  medianRun: LighthouseRun;
  /** The median of the runs' FCP, for comparing pages (the median run's can be an outlier's). */
  medianFcpMs: number;
  errors: string[];
};

type LhReport = {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; title: string; scoreDisplayMode: string }>;
  runtimeError?: { code: string; message: string };
};

/** One Lighthouse 12 run (mobile defaults) in its own process, so a Chrome crash costs one run. */
export async function lighthouseOnce(url: string): Promise<LighthouseRun> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "shop-lh-")), "report.json");
  try {
    await runCommand(
      process.execPath,
      [
        path.resolve("node_modules/lighthouse/cli/index.js"),
        url,
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        `--only-categories=${CATEGORIES.join(",")}`,
        `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
        "--max-wait-for-load=30000",
      ],
      { env: { ...process.env, CHROME_PATH }, timeoutMs: 150_000 },
    );
    return toRun(JSON.parse(fs.readFileSync(out, "utf8")) as LhReport);
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

function toRun(report: LhReport): LighthouseRun {
  if (report.runtimeError) throw new Error(`${report.runtimeError.code}: ${report.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? NaN) * 100)])) as Scores;
  const num = (id: string) => Math.round(report.audits[id]?.numericValue ?? NaN);
  // The audits that cost points, so a missed budget says where to look.
  const failed = CATEGORIES.flatMap((c) =>
    (report.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => ({ ref, audit: report.audits[ref.id] }))
      .filter(({ audit }) => audit && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative")
      .map(({ ref, audit }) => ({ c, id: ref.id, title: audit!.title })),
  );
  return {
    scores,
    metrics: {
      fcpMs: num("first-contentful-paint"),
      lcpMs: num("largest-contentful-paint"),
      tbtMs: num("total-blocking-time"),
      cls: Math.round((report.audits["cumulative-layout-shift"]?.numericValue ?? NaN) * 1000) / 1000,
      speedIndexMs: num("speed-index"),
    },
    failing: failed.map((f) => `${f.c}: ${f.title}`),
    failingIds: failed.map((f) => `${f.c}:${f.id}`),
  };
}

export type LighthouseSession = { run: (url: string) => Promise<LighthouseRun>; close: () => Promise<void> };

/**
 * Lighthouse in this process against one Chromium kept open: about 9 s a run instead of 17 s
 * for the CLI (no Node or Chromium start each time), for the budgets test. Same settings as
 * lighthouseOnce (mobile defaults) without the full-page screenshot, which no score uses.
 * `chromePath`: the browser tests pass theirs; the benchmark keeps the full Chromium shoppers run.
 */
export async function lighthouseSession(categories: readonly Category[] = CATEGORIES, opts: { chromePath?: string } = {}): Promise<LighthouseSession> {
  const { default: lighthouse } = await import("lighthouse");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lh-chrome-"));
  // Its own process group, so closing it ends the helpers (renderers, zygote, crash handler) too.
  const chrome = spawn(opts.chromePath ?? CHROME_PATH, [...CHROME_FLAGS, "--remote-debugging-port=0", `--user-data-dir=${dir}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-chrome.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const close = async () => {
    if (chrome.exitCode === null && chrome.signalCode === null) {
      const exited = new Promise((r) => chrome.once("exit", r));
      signalGroup("SIGTERM");
      setTimeout(() => signalGroup("SIGKILL"), 3000).unref();
      await exited;
    }
    signalGroup("SIGKILL");
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch {
      // A profile folder left in the temp directory changes no result; the OS clears it.
    }
  };
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let err = "";
      const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port:\n${err}`)), 30_000);
      chrome.stderr!.on("data", (d) => {
        err += d;
        const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      chrome.once("exit", (code) => reject(new Error(`Chromium exited with ${code}:\n${err}`)));
    });
  } catch (err) {
    await close();
    throw err;
  }
  return {
    run: async (url) => {
      const result = await lighthouse(url, {
        port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...categories],
        maxWaitForLoad: 30_000,
        disableFullPageScreenshot: true,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      return toRun(result.lhr as unknown as LhReport);
    },
    close,
  };
}

/** Why a run failed, in one line: the exit status and the last words the CLI said, not its command line. */
function runFailure(err: Error): string {
  const [first = "", ...rest] = err.message.split("\n");
  const status = /failed \(([^)]+)\):$/.exec(first)?.[1];
  const said = rest.map((l) => l.trim()).filter(Boolean).slice(-2).join(" ");
  return `${status ? `exit ${status}: ` : ""}${said || first}`.slice(0, 300);
}

/**
 * `runs` runs of one page; each category's median, and the run with the median performance. A run
 * Lighthouse itself gives up on (NO_NAVSTART: its trace of the load came out empty) is tried again,
 * up to two extra attempts, so the median is of `runs` real runs; the failures are still reported.
 */
export async function auditPage(url: string, runs: number): Promise<PageAudit> {
  const done: LighthouseRun[] = [];
  const errors: string[] = [];
  for (let attempt = 0; done.length < runs && attempt < runs + 2; attempt++) {
    try {
      done.push(await lighthouseOnce(url));
    } catch (err) {
      errors.push(runFailure(err as Error));
    }
  }
  if (!done.length) throw new Error(`every Lighthouse run failed: ${errors.join("; ")}`);
  const med = Object.fromEntries(CATEGORIES.map((c) => [c, median(done.map((r) => r.scores[c]))])) as Scores;
  const byPerf = [...done].sort((a, b) => a.scores.performance - b.scores.performance);
  return {
    url,
    runs: done,
    median: med,
    medianRun: byPerf[Math.floor((byPerf.length - 1) / 2)]!,
    medianFcpMs: median(done.map((r) => r.metrics.fcpMs)),
    errors,
  };
}

/**
 * The categories below their budget. `blockedFromIndexing`: the page is one robots.txt keeps from
 * search engines on purpose (/cart), so an SEO score lowered by that audit alone is not a miss.
 */
export function missedBudgets(audit: Pick<PageAudit, "median" | "medianRun">, blockedFromIndexing = false): Category[] {
  return CATEGORIES.filter((c) => {
    if (audit.median[c] >= SCORE_BUDGETS[c]) return false;
    if (c === "seo" && blockedFromIndexing) return audit.medianRun.failingIds.filter((id) => id.startsWith("seo:")).join() !== "seo:is-crawlable";
    return true;
  });
}
