import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { formatBytes } from "~/lib/format";

/**
 * Downloads one external image for the migration, defensively: only http(s), every address a
 * name resolves to is checked (at each redirect too) and the connection goes to the address
 * that was checked, so a DNS answer cannot swap in an internal one between check and use.
 */

/** The download was refused or failed; the message is for the admin's result list. */
export class FetchImageError extends Error {
  override name = "FetchImageError";
}

export type FetchImageOptions = {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Allow private, loopback and link-local addresses (IMAGE_FETCH_ALLOW_PRIVATE; tests). */
  allowPrivate: boolean;
  /** Addresses allowed even though private (a test's own server). */
  trustedAddresses?: string[];
  /** Resolves a host name to its addresses; DNS by default (tests give fixed answers). */
  resolve?: (hostname: string) => Promise<string[]>;
};

const blocked = new net.BlockList();
for (const [net4, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(net4, bits, "ipv4");
for (const [net6, bits] of [
  ["::", 128], ["::1", 128], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8],
] as const) blocked.addSubnet(net6, bits, "ipv6");

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIPv4(ip: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

/** True for an address on the public internet; false for private, loopback, link-local and reserved ones. */
export function isPublicAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return !blocked.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedIPv4(ip.toLowerCase());
    if (v4) return !blocked.check(v4, "ipv4");
    return !blocked.check(ip, "ipv6");
  }
  return false;
}

async function dnsResolve(hostname: string): Promise<string[]> {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

type Hop = { status: number; headers: http.IncomingHttpHeaders; res: http.IncomingMessage };

function request(url: URL, address: string, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === "https:" ? https : http;
  const family = net.isIP(address);
  return new Promise((resolve, reject) => {
    const req = client.get(url, {
      agent: false,
      signal,
      headers: { "user-agent": "LinenAndLoft-ImageMigration/1.0", accept: "image/*" },
      // Connect to the address that was checked, whatever DNS would answer now.
      lookup: (_host, opts, cb) => {
        if ((opts as { all?: boolean }).all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
        else (cb as (e: null, a: string, f: number) => void)(null, address, family);
      },
    });
    req.on("response", (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, res }));
    req.on("error", reject);
  });
}

function describeNetworkError(err: unknown, timeoutMs: number, signal: AbortSignal): FetchImageError {
  if (err instanceof FetchImageError) return err;
  if (signal.aborted) return new FetchImageError(`Timed out after ${Math.round(timeoutMs / 1000)} s`);
  const code = (err as { code?: string }).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchImageError("The image's server could not be found");
  if (code === "ECONNREFUSED") return new FetchImageError("The image's server refused the connection");
  return new FetchImageError(`The download failed (${code ?? (err as Error).message ?? "network error"})`);
}

/** Downloads an image (the bytes and the declared type), or throws FetchImageError with the reason. */
export async function fetchImage(rawUrl: string, opts: FetchImageOptions): Promise<{ body: Buffer; contentType: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  const resolve = opts.resolve ?? dnsResolve;
  try {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FetchImageError("The image address is not a valid web address");
    }
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchImageError("Only http and https image addresses can be downloaded");
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const addresses = net.isIP(host) ? [host] : await resolve(host);
      if (addresses.length === 0) throw new FetchImageError("The image's server could not be found");
      for (const a of addresses) {
        if (!opts.allowPrivate && !isPublicAddress(a) && !opts.trustedAddresses?.includes(a)) {
          throw new FetchImageError(`Refused: ${host} is a private or local address (${a})`);
        }
      }
      const { status, headers, res } = await request(url, addresses[0]!, controller.signal);
      if (status >= 300 && status < 400 && headers.location) {
        res.resume();
        if (hop >= opts.maxRedirects) throw new FetchImageError(`Too many redirects (more than ${opts.maxRedirects})`);
        url = new URL(headers.location, url);
        continue;
      }
      if (status !== 200) {
        res.resume();
        throw new FetchImageError(status === 404 ? "Not found (HTTP 404)" : `The image's server answered HTTP ${status}`);
      }
      const contentType = String(headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (contentType && !contentType.startsWith("image/") && contentType !== "application/octet-stream") {
        res.resume();
        throw new FetchImageError(`Not an image: the server sent ${contentType}`);
      }
      const declared = Number(headers["content-length"]);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw new FetchImageError(`The image is larger than ${formatBytes(opts.maxBytes)}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > opts.maxBytes) {
          res.destroy();
          throw new FetchImageError(`The image is larger than ${formatBytes(opts.maxBytes)}`);
        }
        chunks.push(chunk as Buffer);
      }
      return { body: Buffer.concat(chunks), contentType };
    }
  } catch (err) {
    throw describeNetworkError(err, opts.timeoutMs, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
