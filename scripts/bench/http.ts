import http from "node:http";

/** One keep-alive connection reused for sequential timing, like a browser's. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export type Timed = { status: number; ms: number; bytes: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * A request timed from the first byte sent to the last byte received (time to last byte), on
 * 127.0.0.1 so the network adds a few microseconds at most. `keepBody` keeps the text.
 */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; keepBody?: boolean; timeoutMs?: number } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      url,
      { method: opts.method ?? "GET", agent, headers: { "accept-encoding": "gzip", ...opts.headers } },
      (res) => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => {
          bytes += d.length;
          if (opts.keepBody) chunks.push(d);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            bytes,
            headers: res.headers,
            body: opts.keepBody ? Buffer.concat(chunks).toString("utf8") : "",
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`timed out: ${url}`)));
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** GET with a plain body and no compression, for reading pages and JSON. */
export const getText = (url: string, headers: Record<string, string> = {}) =>
  request(url, { headers: { "accept-encoding": "identity", ...headers }, keepBody: true });

/** Signs in through better-auth's endpoint (as the sign-in form does) and returns the Cookie header. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await request(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl, "accept-encoding": "identity" },
    body: JSON.stringify({ email, password }),
    keepBody: true,
  });
  const setCookie = res.headers["set-cookie"] ?? [];
  if (res.status !== 200 || !setCookie.length) throw new Error(`sign-in answered ${res.status}: ${res.body.slice(0, 200)}`);
  return setCookie.map((c) => c.split(";")[0]).join("; ");
}
