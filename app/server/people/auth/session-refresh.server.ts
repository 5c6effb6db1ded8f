import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";
import { RENDERED_FOR, type ViewerRole } from "../../platform/index.server";

type Holder = { cookies: string[]; viewer?: ViewerRole };

const g = globalThis as unknown as { __shopSessionRefresh?: AsyncLocalStorage<Holder> };
// On globalThis so the dev server's reloaded modules and the server build share one store.
const scope = (g.__shopSessionRefresh ??= new AsyncLocalStorage<Holder>());

const SESSION_COOKIE = /^(?:__Secure-)?better-auth\.session_token=/;
const cookieName = (c: string) => c.slice(0, c.indexOf("="));

/**
 * Sliding sessions: when reading the session extends it (better-auth does so at most once a
 * day), the renewed cookie must reach the browser, or it would still expire 7 days after sign-in.
 * Loaders only see a Request, so getCurrentUser() hands the cookie here and this middleware
 * adds it to whatever response goes out, unless that response sets the session cookie itself.
 * It also notes, for the page cache, what kind of visitor the response was made for.
 */
export function sessionCookieRefresh() {
  return (_req: Request, res: Response, next: NextFunction) => {
    const holder: Holder = { cookies: [] };
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      res.locals[RENDERED_FOR] = holder.viewer ?? "anonymous";
      if (holder.cookies.length && !res.headersSent) {
        const current = res.getHeader("set-cookie");
        const list = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
        if (!list.some((c) => SESSION_COOKIE.test(c))) {
          const latest = new Map(holder.cookies.map((c) => [cookieName(c), c]));
          res.setHeader("set-cookie", [...list, ...latest.values()]);
        }
      }
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    scope.run(holder, () => next());
  };
}

/** Called with the headers better-auth produced while reading the session. */
export function rememberSessionCookies(headers: Headers | null | undefined) {
  const holder = scope.getStore();
  if (!holder || !headers) return;
  for (const c of headers.getSetCookie()) if (SESSION_COOKIE.test(c)) holder.cookies.push(c);
}

/** Called with the role of the session a rendering found (getCurrentUser). */
export function rememberViewer(role: ViewerRole) {
  const holder = scope.getStore();
  if (holder) holder.viewer = role;
}
