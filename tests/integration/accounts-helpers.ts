import { desc, eq } from "drizzle-orm";
import { authMailsSettled } from "~/server/people/auth/auth.server";
import type { Db } from "~/server/platform/db/client.server";
import { mailOutbox } from "~/server/platform/db/schema";

/** What a loader or action answered, thrown or returned, as a person's browser would see it. */
export type Outcome = { status: number; location: string | null; headers: Headers; data: any };

function normalize(r: unknown): Outcome {
  if (r instanceof Response) return { status: r.status, location: r.headers.get("location"), headers: r.headers, data: null };
  if (r && typeof r === "object" && (r as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = r as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, location: null, headers: new Headers(init?.headers), data };
  }
  return { status: 200, location: null, headers: new Headers(), data: r };
}

type Handler = (args: any) => unknown;

export async function run(fn: Handler | undefined, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  if (!fn) throw new Error("no such export");
  try {
    return normalize(await fn({ request, params, context: { requestId: "test", cspNonce: "" } }));
  } catch (e) {
    if (e instanceof Error) throw e;
    return normalize(e);
  }
}

let ipCounter = 10;
/** A fresh client address, so per-IP limits of one test do not spill into the next. */
export const freshIp = () => `198.51.100.${ipCounter++ % 250}`;

/** A form POST as the browser sends it, from the given address and with the given cookies. */
export function post(path: string, fields: Record<string, string>, opts: { ip?: string; cookie?: string } = {}) {
  const headers = new Headers({ "x-shop-client-ip": opts.ip ?? freshIp(), origin: "http://localhost:3000" });
  if (opts.cookie) headers.set("cookie", opts.cookie);
  return new Request(new URL(path, "http://localhost:3000"), { method: "POST", body: new URLSearchParams(fields), headers });
}

export function get(path: string, opts: { cookie?: string; ip?: string } = {}) {
  const headers = new Headers({ "x-shop-client-ip": opts.ip ?? freshIp() });
  if (opts.cookie) headers.set("cookie", opts.cookie);
  return new Request(new URL(path, "http://localhost:3000"), { headers });
}

/** The `name=value` pairs a browser would send back after these Set-Cookie headers. */
export function cookieFrom(headers: Headers, previous = ""): string {
  const jar = new Map(previous.split(/;\s*/).filter(Boolean).map((c) => [c.split("=")[0]!, c] as const));
  for (const sc of headers.getSetCookie()) {
    const pair = sc.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(sc) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The newest mails to an address (after the background sends have finished). */
export async function mailsTo(db: Db, to: string) {
  await authMailsSettled();
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt));
}

export function linkIn(text: string): string {
  const m = /https?:\/\/\S+/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[0];
}
