import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";

type Holder = { cookies: string[] };

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
 */
export function sessionCookieRefresh() {
  return (_req: Request, res: Response, next: NextFunction) => {
    const holder: Holder = { cookies: [] };
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
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
