import type { NextFunction, Request, Response } from "express";

/** A session cookie (on https better-auth names it with the __Secure- prefix), valid or not. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
/** The admin and the account page: personal whoever asks, and whatever they answer (a redirect too). */
const PRIVATE_PATH = /^\/(?:admin|profile)(?:[/.]|$)/;
/**
 * Pages a mail's link opens with its working token, and that show an email or a cart's lines:
 * the abandoned-checkout reminder's cart and unsubscribe links, the newsletter's confirm and
 * unsubscribe links, and the account's confirmation, sign-in and reset links (their form carries
 * the token). Personal to whoever holds the link, whatever the route sends.
 */
const TOKEN_PATH = /^\/(?:cart\/restore|unsubscribe|newsletter\/[^/]+|auth\/(?:confirm|sign-in-link|reset-password))(?:\.data)?$/;
/** A page, or React Router's answer to a client-side navigation's `.data` request. */
const PAGE_TYPE = /^(?:text\/html|text\/x-script)\b/i;

export const PRIVATE_NO_STORE = "private, no-store";

/** Whether the response to this request must be kept out of every cache (shared or not). */
export function isPrivateRequest(req: Pick<Request, "path" | "headers">): boolean {
  return SESSION_COOKIE.test(req.headers.cookie ?? "") || PRIVATE_PATH.test(req.path) || TOKEN_PATH.test(req.path);
}

/**
 * `Cache-Control: private, no-store` on what a signed-in person is sent, and on every /admin and
 * /profile answer and on the pages a mail's token opens (TOKEN_PATH): every page and `.data` answer, and any other answer that says nothing about
 * caching itself (a JSON or CSV answer; files from /media or /assets keep their own long caching,
 * since they are the same for everyone). Storefront pages for visitors without cookies come from
 * the page cache instead and are untouched (docs/decisions/0012).
 */
export function privateResponses() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isPrivateRequest(req)) return next();
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (!res.headersSent) {
        const type = String(res.getHeader("content-type") ?? "");
        if (PAGE_TYPE.test(type) || res.getHeader("cache-control") === undefined) res.setHeader("Cache-Control", PRIVATE_NO_STORE);
      }
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
