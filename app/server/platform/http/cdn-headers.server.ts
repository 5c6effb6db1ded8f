import type { NextFunction, Request, Response } from "express";
import { surrogateKeysOf } from "../cdn/keys.server";
import { isPrivateRequest, PRIVATE_NO_STORE } from "./private-responses.server";

/** A page, or React Router's answer to a client-side navigation's `.data` request. */
const PAGE_TYPE = /^(?:text\/html|text\/x-script)\b/i;
/** Pages that are a shopper's own whoever asks: the checkout (its cart, its address). */
const PERSONAL_PATH = /^\/checkout(?:[/.]|$)/;
/** A session cookie (on https better-auth names it with the __Secure- prefix), valid or not. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
/** The build's fingerprinted files: the same bytes for everyone, whoever asks. */
const BUILD_FILES = /^\/assets\//;

/**
 * An answer's own public caching (robots.txt, the sitemap, an image) made private for a request
 * that carries a session: the browser keeps it as long, no shared cache keeps it for others.
 */
export function privateOfPublic(own: string): string {
  return own
    .split(",")
    .map((d) => d.trim())
    .filter((d) => d && !/^(?:public|s-maxage=.*|stale-while-revalidate=.*)$/i.test(d))
    .concat("private")
    .sort((a, b) => (a === "private" ? -1 : b === "private" ? 1 : 0))
    .join(", ");
}

export type CdnCaching = { sMaxAge: number; staleWhileRevalidate: number };

/**
 * The Cache-Control of a storefront page any CDN may keep and serve to every visitor without
 * cookies. No stale-while-revalidate here: browsers apply it too, and would show a page from their
 * own cache, old prices and stock included, for as long as it allows (see cdnOnlyCacheControl).
 */
export function publicCacheControl(opts: CdnCaching): string {
  return `public, max-age=0, s-maxage=${opts.sMaxAge}`;
}

/**
 * The same lifetime for the CDN alone, with its grace: `CDN-Cache-Control` (RFC 9213; Cloudflare)
 * and `Surrogate-Control` (Fastly, and our Varnish configuration) take precedence over
 * Cache-Control at the CDN, which strips or ignores them; browsers never read them.
 */
export function cdnOnlyCacheControl(opts: CdnCaching): string {
  return `max-age=${opts.sMaxAge}, stale-while-revalidate=${opts.staleWhileRevalidate}`;
}

/**
 * The response is a page everyone without a cookie sees alike: asked without any cookie or
 * credentials, a storefront page the page cache would keep too (surrogateKeysOf), answered 200 as a
 * page or data request, setting no cookie, and not marked private or no-store by its route.
 */
function publicKeys(req: Request, res: Response): string[] | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (req.headers.cookie || req.headers.authorization || isPrivateRequest(req)) return null;
  if (res.statusCode !== 200 || res.getHeader("set-cookie") !== undefined) return null;
  if (!PAGE_TYPE.test(String(res.getHeader("content-type") ?? ""))) return null;
  if (/\b(?:private|no-store)\b/i.test(String(res.getHeader("cache-control") ?? ""))) return null;
  return surrogateKeysOf(req.path);
}

/**
 * The CDN's side of caching (docs/decisions/0037), decided as the headers go out, whether the page
 * was rendered or came from the page cache:
 *
 * - a page anyone without cookies sees alike: `Cache-Control: public, max-age=0, s-maxage=…`
 *   (browsers ask again each time; a CDN keeps it), `CDN-Cache-Control` and `Surrogate-Control`
 *   with the CDN's lifetime and its stale-while-revalidate grace, and its keys in
 *   `Surrogate-Key` (space separated: Fastly, Varnish) and `Cache-Tag` (comma separated: Cloudflare),
 *   which the purge job names when the change log says what changed;
 * - any answer that sets a cookie, a checkout page, and a page asked for with any cookie:
 *   `private, no-store` (signed-in visitors, /admin, /profile and links' tokens are already so,
 *   privateResponses); another answer that is public by its own header (robots.txt, the sitemap,
 *   an image) is made `private` with the same lifetime when the request carries a session, so
 *   nothing asked for with a session is ever public (the build's /assets files excepted). The
 *   keys never go out on those.
 *
 * Installed before the page cache, so a page it answers gets the same headers.
 */
export function cdnHeaders(opts: CdnCaching) {
  const cacheControl = publicCacheControl(opts);
  const cdnOnly = cdnOnlyCacheControl(opts);
  return (req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (!res.headersSent) {
        // writeHead(status) may carry the status: read it first.
        if (typeof args[0] === "number") res.statusCode = args[0];
        const keys = publicKeys(req, res);
        if (keys) {
          res.setHeader("Cache-Control", cacheControl);
          res.setHeader("CDN-Cache-Control", cdnOnly);
          res.setHeader("Surrogate-Control", cdnOnly);
          res.setHeader("Surrogate-Key", keys.join(" "));
          res.setHeader("Cache-Tag", keys.join(","));
        } else {
          for (const name of ["Surrogate-Key", "Cache-Tag", "CDN-Cache-Control", "Surrogate-Control"]) res.removeHeader(name);
          const own = String(res.getHeader("cache-control") ?? "");
          const page = PAGE_TYPE.test(String(res.getHeader("content-type") ?? ""));
          const personal =
            res.getHeader("set-cookie") !== undefined || PERSONAL_PATH.test(req.path) || (page && Boolean(req.headers.cookie));
          if (!personal && /\bpublic\b/i.test(own) && SESSION_COOKIE.test(req.headers.cookie ?? "") && !BUILD_FILES.test(req.path)) {
            res.setHeader("Cache-Control", privateOfPublic(own));
          } else if (personal && !/\bprivate\b/i.test(own)) {
            res.setHeader("Cache-Control", /\bno-transform\b/i.test(own) ? `${PRIVATE_NO_STORE}, no-transform` : PRIVATE_NO_STORE);
          } else if (!personal && /\bpublic\b/i.test(own) && page) {
            // A page this rule did not make public (a 404, a page with its own public header
            // kept from an earlier answer) is not left public for a shared cache.
            res.removeHeader("Cache-Control");
          }
        }
      }
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
