import autocannon, { type AutocannonRequest, type Result } from "autocannon";
import { summarize, type Percentiles } from "./stats";

export type CannonRun = {
  connections: number;
  seconds: number;
  requests: number;
  reqPerSec: number;
  /** Exact percentiles of every response's time in ms (autocannon's own table has no p95). */
  latency: Percentiles;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  raw: Pick<Result, "requests" | "latency" | "throughput">;
  /** Every response's time in ms, when asked for (`keepTimes`): to pool several runs' percentiles. */
  times?: number[];
};

/** One autocannon run on 127.0.0.1, bounded in time; every response time is kept for percentiles. */
export function cannon(opts: {
  url: string;
  connections: number;
  seconds: number;
  requests?: AutocannonRequest[];
  headers?: Record<string, string>;
  keepTimes?: boolean;
}): Promise<CannonRun> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(opts.url)) throw new Error(`Load tests run on 127.0.0.1 only (got ${opts.url})`);
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        duration: opts.seconds,
        timeout: 10,
        headers: opts.headers,
        requests: opts.requests,
      },
      (err, result) => {
        if (err) return reject(err);
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count;
        resolve({
          connections: opts.connections,
          seconds: opts.seconds,
          requests: times.length,
          reqPerSec: Math.round((times.length / (result.duration || opts.seconds)) * 10) / 10,
          latency: summarize(times),
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          statusCodes,
          raw: { requests: result.requests, latency: result.latency, throughput: result.throughput },
          ...(opts.keepTimes ? { times } : {}),
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
}
