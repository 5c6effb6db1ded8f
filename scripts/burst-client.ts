import http from "node:http";

/**
 * A burst: every request sent at the same moment, each on its own connection (as a thousand
 * different visitors would), and what came back counted. Shared by the burst test
 * (tests/e2e/burst.test.ts) and the bench's burst part (scripts/bench/burst.ts). Nothing here
 * imports the test runner.
 */

export type BurstAnswer = {
  url: string;
  status: number;
  retryAfter: string | null;
  /** The page cache's X-Page-Cache header: miss, hit or shared (a concurrent miss's rendering). */
  pageCache: string | null;
  contentType: string;
  /** The body of a refusal (any answer but 200), for checking what the visitor sees. */
  body: string;
  /** From the request's start to its last byte. */
  ms: number;
};

export type BurstResult = {
  sent: number;
  answers: BurstAnswer[];
  /** Requests that got no HTTP answer at all, by error code (ECONNRESET, timeout…). */
  socketErrors: Record<string, number>;
};

export async function burst(
  urls: string[],
  opts: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<BurstResult> {
  // One socket per request, all opened at once; none reused, so no request waits for another's.
  const agent = new http.Agent({ keepAlive: false, maxSockets: urls.length + 10 });
  const answers: BurstAnswer[] = [];
  const socketErrors: Record<string, number> = {};
  const timeoutMs = opts.timeoutMs ?? 120_000;
  try {
    await Promise.all(
      urls.map(
        (url) =>
          new Promise<void>((resolve) => {
            const started = process.hrtime.bigint();
            let settled = false;
            const fail = (code: string) => {
              if (settled) return;
              settled = true;
              socketErrors[code] = (socketErrors[code] ?? 0) + 1;
              resolve();
            };
            const req = http.request(
              url,
              { agent, headers: { accept: "text/html,application/xhtml+xml", "accept-encoding": "identity", ...opts.headers } },
              (res) => {
                const chunks: Buffer[] = [];
                const status = res.statusCode ?? 0;
                res.on("data", (d: Buffer) => {
                  if (status !== 200) chunks.push(d);
                });
                res.on("end", () => {
                  if (settled) return;
                  settled = true;
                  answers.push({
                    url,
                    status,
                    retryAfter: typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : null,
                    pageCache: typeof res.headers["x-page-cache"] === "string" ? res.headers["x-page-cache"] : null,
                    contentType: String(res.headers["content-type"] ?? ""),
                    body: Buffer.concat(chunks).toString("utf8"),
                    ms: Number(process.hrtime.bigint() - started) / 1e6,
                  });
                  resolve();
                });
                res.on("error", (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
              },
            );
            req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timed out"), { code: "TIMEOUT" })));
            req.on("error", (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
            req.end();
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
  return { sent: urls.length, answers, socketErrors };
}

/** Counts by status, and the answers that break the rule "200, or 503 with Retry-After". */
export function tally(result: BurstResult) {
  const byStatus: Record<number, number> = {};
  const byCache: Record<string, number> = {};
  for (const a of result.answers) {
    byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    if (a.pageCache) byCache[a.pageCache] = (byCache[a.pageCache] ?? 0) + 1;
  }
  const served = byStatus[200] ?? 0;
  const refused = result.answers.filter((a) => a.status === 503 && a.retryAfter !== null).length;
  const broken = result.answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter !== null));
  const socketErrors = Object.values(result.socketErrors).reduce((s, n) => s + n, 0);
  return { sent: result.sent, served, refused, broken, byStatus, byCache, socketErrors };
}
