import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import { sql } from "drizzle-orm";
import type { NextFunction, Request, Response } from "express";
import type pg from "pg";
import { RENDERED_FOR, SESSION_COOKIE_NAMES, type ViewerRole } from "./session-viewer.server";
import type { Database, Db } from "../db/client.server";
import type { JobTasks } from "../jobs/queue.server";
import { getRootLogger } from "../logger.server";
import { contentSecurityPolicy } from "./security-headers.server";
import { checkedForThisRequest, storefrontChangeLog, type StorefrontChanges } from "./storefront-changes.server";

/**
 * A cache of whole storefront pages, kept per kind of visitor: visitors without cookies all see
 * the same page, and so do all signed-in customers (and all admins), since storefront pages carry
 * no one's identity — only whether someone is signed in, and as what (docs/decisions/0023).
 * A page is reused only while no write that changes what it shows has committed since it was
 * rendered: triggers log each such write (storefront_changes, migration 0008), and before a page
 * is served again this server reads the log as it stands after the request arrived
 * (storefront-changes.server.ts). So an admin's save shows on the very next request, from any
 * app server.
 */

/**
 * Storefront pages that look the same to every anonymous visitor (the cart lives in the browser),
 * and their data requests (`/shop.data`, `/_root.data` for the home page…), which a client-side
 * navigation fetches instead of the page: the same loaders, so the same change log governs both.
 */
const CACHEABLE = [
  /^\/(?:_root\.data)?$/,
  /^\/shop(?:\.data)?$/,
  /^\/product\/[^/]+$/,
  /^\/blog(?:\.data)?$/,
  /^\/blog\/(?!rss\.xml$)[^/]+$/,
  /^\/cart(?:\.data)?$/,
  /^\/contact(?:\.data)?$/,
];
/**
 * Pages whose rendering differs from one signed-in customer to another (a product page says
 * whether this shopper may review it): a signed-in visitor's request renders its own.
 */
const OWN_WHEN_SIGNED_IN = /^\/product\//;
const PRODUCT_PAGE = /^\/product\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.data)?$/i;
/** React Router's single-fetch answer to a `.data` request. */
const DATA_TYPE = "text/x-script";
/** A safety net for anything the change log does not cover (nothing known). */
const PAGE_TTL_MS = 10 * 60_000;
/** Kept well beyond PAGE_TTL_MS, so no page outlives the log rows that could mark it stale. */
export const CHANGE_LOG_HOURS = 1;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** Headers that belong to one response, not to the page. */
const PER_RESPONSE = new Set([
  "content-security-policy",
  "x-request-id",
  "x-page-cache",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "date",
  "connection",
  "keep-alive",
]);

export type CachedPage = {
  html: Buffer;
  /**
   * Made in the background as the page is kept (its first answer is out by then); until it is in,
   * the plain page answers everyone: a few milliseconds, against a page kept only after
   * compressing, which let the next request find it still being kept.
   */
  gzip?: Buffer;
  /** Made once the page is served again (brotliCopy); until then, gzip answers everyone. */
  br?: Buffer;
  headers: [string, number | string | string[]][];
  /** sha256 (base64) of each inline script the render's nonce vouched for. */
  scriptHashes: string[];
  /** Which product's page this is (its stock changes alone make it stale), if any. */
  productId: string | null;
  /** The change log's generation when the rendering began (StorefrontChanges). */
  generation: number;
  storedAt: number;
};

/** Least recently used pages go first once the pages together pass `maxBytes`. */
export class PageStore {
  readonly #pages = new Map<string, CachedPage>();
  #bytes = 0;
  constructor(readonly maxBytes: number) {}

  get(key: string): CachedPage | undefined {
    const page = this.#pages.get(key);
    if (page) {
      this.#pages.delete(key);
      this.#pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: CachedPage) {
    this.delete(key);
    const size = pageBytes(page);
    if (size > this.maxBytes) return;
    this.#pages.set(key, page);
    this.#bytes += size;
    for (const oldest of this.#pages.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Adds a compressed copy to the page stored under `key`, if that is still this page. */
  addCopy(key: string, page: CachedPage, encoding: "gzip" | "br", body: Buffer) {
    if (this.#pages.get(key) !== page || page[encoding]) return;
    page[encoding] = body;
    this.#bytes += body.byteLength;
    for (const oldest of this.#pages.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string) {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#bytes -= pageBytes(page);
  }

  get bytes() {
    return this.#bytes;
  }

  get size() {
    return this.#pages.size;
  }
}

const pageBytes = (p: CachedPage) => p.html.byteLength + (p.gzip?.byteLength ?? 0) + (p.br?.byteLength ?? 0);

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * Hashes of the inline scripts that carry the render's nonce. A script without it (markup that
 * slipped into stored content) gets no hash, so the cached page refuses it as the original did.
 */
export function nonceScriptHashes(html: string, nonce: string): string[] {
  const hashes = new Set<string>();
  for (const [, attrs, body] of html.matchAll(SCRIPT)) {
    if (!body || !attrs!.includes(`nonce="${nonce}"`) || /\ssrc=/i.test(attrs!)) continue;
    hashes.add(createHash("sha256").update(body, "utf8").digest("base64"));
  }
  return [...hashes];
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Brotli at its best quality takes the home page's and /shop's first screen (markup, inline CSS
 * and loader data) under the 14.6 KB a browser receives in its first round trip, where gzip
 * leaves them a round trip over (docs/decisions/0021-first-paint.md). It costs 50–100 ms of a
 * core per page, in the thread pool: made for a page on its first hit, never for one requested
 * once (a burst of distinct searches would otherwise keep both cores compressing pages no one
 * asks for again, slowing everything else for a minute).
 */
export function brotliCopy(body: Buffer): Promise<Buffer> {
  return brotliAsync(body, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });
}

/** Which visitors may share a rendering: anonymous ones, or signed-in ones of one role. */
export type CacheViewer = "anonymous" | ViewerRole;

/** Looks up the role behind a session cookie's value (session-viewer.server.ts); null: none usable. */
export type SessionRole = (cookieValue: string) => Promise<ViewerRole | null>;

/** The value of the request's only cookie when that is the session cookie, else null. */
export function onlySessionCookie(header: string): string | null {
  const pairs = header.split(";").map((p) => p.trim()).filter(Boolean);
  if (pairs.length !== 1) return null;
  const eq = pairs[0]!.indexOf("=");
  return eq > 0 && SESSION_COOKIE_NAMES.has(pairs[0]!.slice(0, eq)) ? pairs[0]!.slice(eq + 1) : null;
}

/**
 * The rendering this request may be answered with: anonymous without cookies; the one of its
 * role with a valid session cookie alone; none (null: it renders its own) with any other cookie,
 * a session the lookup does not vouch for, or a page that differs between customers.
 */
export async function cacheViewerOf(req: Request, sessionRole: SessionRole | undefined): Promise<CacheViewer | null> {
  if (req.method !== "GET" || req.headers.authorization || !CACHEABLE.some((pattern) => pattern.test(req.path))) return null;
  const cookie = req.headers.cookie;
  if (!cookie) return "anonymous";
  if (!sessionRole || OWN_WHEN_SIGNED_IN.test(req.path)) return null;
  const value = onlySessionCookie(cookie);
  if (value === null) return null;
  return sessionRole(value).catch(() => null);
}

const CAPTURE = Symbol("page-cache capture");
type Capture = (html: Buffer) => void;

/**
 * Two middlewares, `maxBytes` 0 turning both off. `serve`, early (before compression and the
 * per-request work a cached page does not need): answers from the cache, or marks the miss.
 * `capture`, last before React Router: copies the page as it is rendered, before compression.
 */
export function pageCache(opts: {
  maxBytes: number;
  pool: () => pg.Pool;
  sessionRole?: SessionRole;
  /** The server's shared reader of the change log; else one of its own. */
  changes?: StorefrontChanges;
}) {
  const store = new PageStore(opts.maxBytes);
  /** Pages being rendered right now, by key: what a concurrent miss of the same URL waits for. */
  const rendering = new Map<string, Promise<CachedPage | null>>();
  const log = getRootLogger();
  const changes = opts.changes ?? storefrontChangeLog(opts.pool);

  /** Pages whose brotli copy is being made, so concurrent hits start it once. */
  const compressing = new WeakSet<CachedPage>();
  /**
   * Not awaited by anyone: the page answers as it is until the copy joins it, and a page
   * replaced or dropped meanwhile is left as it is.
   */
  const copyInBackground = (key: string, page: CachedPage, encoding: "gzip" | "br") => {
    void (encoding === "br" ? brotliCopy(page.html) : gzipAsync(page.html))
      .then((body) => store.addCopy(key, page, encoding, body))
      .catch((err: Error) => log.warn({ err: err.message, key, encoding }, "could not compress page"));
  };
  const brotliOnFirstHit = (key: string, page: CachedPage) => {
    if (compressing.has(page)) return;
    compressing.add(page);
    copyInBackground(key, page, "br");
  };

  const serve = async (req: Request, res: Response, next: NextFunction) => {
    if (opts.maxBytes <= 0) return next();
    const viewer = await cacheViewerOf(req, opts.sessionRole);
    if (!viewer) return next();
    const key = viewer === "anonymous" ? req.originalUrl : `${viewer} ${req.originalUrl}`;
    // Every change committed before this request is known once this check is applied. If the
    // log cannot be read (a database outage), the page answers for itself (503) and is not kept.
    // A miss's loaders reuse this check for what they remember (remembered-reads.server.ts).
    if (!(await checkedForThisRequest(changes))) return next();
    // Looked up after the check: a page stored while this request waited for it counts too.
    let page = store.get(key);
    if (page && Date.now() - page.storedAt > PAGE_TTL_MS) {
      store.delete(key);
      page = undefined;
    }
    if (page) {
      if (changes.isFresh(page.generation, page.productId)) {
        sendCached(req, res, page);
        if (!page.br) brotliOnFirstHit(key, page);
        return;
      }
      store.delete(key);
    }
    // Single flight: a miss while the same page is being rendered waits for that rendering
    // instead of starting another, and gets it if no change that concerns it has committed
    // since it began (the check above knows every change committed before this request).
    const shared = rendering.get(key);
    if (shared) {
      const sharedPage = await shared;
      if (sharedPage && changes.isFresh(sharedPage.generation, sharedPage.productId)) return sendCached(req, res, sharedPage, "shared");
      // Nothing to share (a redirect, a 404, an error, a change since): this request renders.
    }
    // The rendering starts from that check, so the next one does not discard it for a change
    // it already shows.
    res.setHeader("X-Page-Cache", "miss");
    const generation = changes.generation;
    const productId = PRODUCT_PAGE.exec(req.path)?.[1]?.toLowerCase() ?? null;
    let settle: (page: CachedPage | null) => void = () => {};
    if (!rendering.has(key)) {
      const flight = new Promise<CachedPage | null>((resolve) => (settle = resolve));
      rendering.set(key, flight);
      const done = settle;
      settle = (kept) => {
        if (rendering.get(key) === flight) rendering.delete(key);
        done(kept);
      };
    }
    let captured = false;
    // Not rendered after all (refused, cut off, too big to keep): the waiting requests render.
    res.once("close", () => captured || settle(null));
    // Kept as the answer ends, so a request that follows it finds the page.
    const capture: Capture = (html) => {
      captured = true;
      let kept: CachedPage | null = null;
      try {
        kept = keepPage(res, html, viewer, { generation, productId });
        if (kept && changes.isFresh(generation, productId)) {
          store.set(key, kept);
          copyInBackground(key, kept, "gzip");
        }
      } catch (err) {
        log.warn({ err: (err as Error).message, key }, "could not cache page");
        kept = null;
      }
      settle(kept);
    };
    (res.locals as Record<symbol, Capture>)[CAPTURE] = capture;
    next();
  };

  const capture = (_req: Request, res: Response, next: NextFunction) => {
    const done = (res.locals as Record<symbol, Capture | undefined>)[CAPTURE];
    if (done) captureResponse(res, done);
    next();
  };

  return { serve, capture };
}

/** The page as it was sent the first time (its security headers included), with a CSP by hash. */
function sendCached(req: Request, res: Response, page: CachedPage, how: "hit" | "shared" = "hit") {
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Content-Security-Policy", contentSecurityPolicy({ hashes: page.scriptHashes }, false));
  res.setHeader("X-Page-Cache", how);
  res.setHeader("Vary", "Accept-Encoding");
  const encoding = page.br && req.acceptsEncodings("br") === "br" ? "br" : page.gzip && req.acceptsEncodings("gzip") === "gzip" ? "gzip" : null;
  if (encoding) res.setHeader("Content-Encoding", encoding);
  const body = encoding === "br" ? page.br! : encoding === "gzip" ? page.gzip! : page.html;
  res.setHeader("Content-Length", body.byteLength);
  res.status(200).end(body);
}

/**
 * Only a complete, successful HTML page or data answer that sets no cookie, rendered for the kind
 * of visitor it is kept for, is kept (a session that ended between the lookup and the rendering
 * makes an anonymous page, which must not be handed to signed-in customers).
 */
function keepPage(res: Response, html: Buffer, viewer: CacheViewer, from: Pick<CachedPage, "generation" | "productId">): CachedPage | null {
  const type = String(res.getHeader("content-type") ?? "");
  if (res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined) return null;
  if ((res.locals[RENDERED_FOR] ?? "anonymous") !== viewer) return null;
  const isPage = type.startsWith("text/html");
  if (!isPage && !type.startsWith(DATA_TYPE)) return null;
  // A page's inline scripts are vouched for by its nonce; a data answer runs no script.
  const nonce = String(res.locals.cspNonce ?? "");
  if (isPage && !nonce) return null;
  const headers = Object.entries(res.getHeaders())
    .filter(([name, value]) => value !== undefined && !PER_RESPONSE.has(name))
    .map(([name, value]) => [name, value] as [string, number | string | string[]]);
  return {
    html,
    headers,
    scriptHashes: isPage ? nonceScriptHashes(html.toString("utf8"), nonce) : [],
    ...from,
    storedAt: Date.now(),
  };
}

type Chunk = string | Uint8Array;

/** Copies the body as it is written (before compression) and hands it over once it is whole. */
function captureResponse(res: Response, done: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let tooBig = false;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (tooBig || chunk === undefined || chunk === null || typeof chunk === "function") return;
    const buf =
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk as Uint8Array);
    bytes += buf.byteLength;
    if (bytes > MAX_PAGE_BYTES) tooBig = true;
    else chunks.push(buf);
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, ...args: unknown[]) {
    collect(args[0], args[1]);
    const result = (end as (...a: unknown[]) => Response).apply(this, args);
    if (!tooBig && !res.destroyed) done(Buffer.concat(chunks));
    return result;
  } as Response["end"];
}

/** Drops change-log rows no cached page can still need. */
export function pruneStorefrontChanges(db: Db) {
  return db.execute(sql`delete from storefront_changes where created_at < now() - make_interval(hours => ${CHANGE_LOG_HOURS})`);
}

/**
 * The triggers log every storefront write whether or not a server caches pages (PAGE_CACHE_MB=0,
 * the dev server), so every running shop takes part in pruning: a job queue cron line, every ten
 * minutes, once per cluster (docs/decisions/0028).
 */
export function changeLogJobs(db: Db): JobTasks {
  return {
    handlers: { "storefront:prune-change-log": async () => void (await pruneStorefrontChanges(db)) },
    crontab: ["*/10 * * * * storefront:prune-change-log ?max=1"],
  };
}
