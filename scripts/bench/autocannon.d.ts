// The parts of autocannon 9 the bench uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type AutocannonRequest = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  };

  export type Histogram = {
    average: number; mean: number; stddev: number; min: number; max: number; total: number;
    p50: number; p90: number; p97_5: number; p99: number;
  };

  export type Result = {
    duration: number;
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    "1xx": number; "2xx": number; "3xx": number; "4xx": number; "5xx": number;
    statusCodeStats: Record<string, { count: number }>;
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    initialContext?: Record<string, unknown>;
  };

  export type Instance = EventEmitter & {
    stop: () => void;
    on(event: "response", fn: (client: unknown, status: number, bytes: number, responseTime: number) => void): Instance;
    on(event: "reqError", fn: (err: Error) => void): Instance;
    on(event: "done", fn: (r: Result) => void): Instance;
  };

  function autocannon(opts: Options, cb: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
