import type { NextFunction, Request, Response } from "express";

/** A session cookie (on https better-auth names it with the __Secure- prefix), valid or not. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
/** The admin and the account page: personal whoever asks, and whatever they answer (a redirect too). */
const PRIVATE_PATH = /^\/(?:admin|profile)(?:[/.]|$)/;
/**
 * Pages a link's token opens, and that show an email, an order or a cart's lines: the
 * abandoned-checkout reminder's cart and unsubscribe links, the newsletter's confirm and
 * unsubscribe links, the account's confirmation, sign-in and reset links (their form carries
 * the token) and better-auth's old confirmation link (a redirect to it), the payment result page
 * (its payment session id), the test provider's payment page (the session id in its path) and
 * the payment page's signed cancel link.
 * Personal to whoever holds the link, whatever the route sends.
 */
const TOKEN_PATH =
  /^\/(?:cart\/restore|unsubscribe|newsletter\/[^/]+|auth\/(?:confirm|sign-in-link|reset-password)|order-success|pay\/test\/[^/]+|api\/auth\/verify-email|api\/checkout\/leave)(?:\.data)?$/;
/** A page, or React Router's answer to a client-side navigation's `.data` request. */
const PAGE_TYPE = /^(?:text\/html|text\/x-script)\b/i;

export const PRIVATE_NO_STORE = "private, no-store";

/** Whether the response to this request must be kept out of every cache (shared or not). */
export function isPrivateRequest(req: Pick<Request, "path" | "headers">): boolean {
  return SESSION_COOKIE.test(req.headers.cookie ?? "") || PRIVATE_PATH.test(req.path) || TOKEN_PATH.test(req.path);
}

/**
 * An answer's own non-public Cache-Control ('no-store', 'no-cache, no-transform') made
 * 'private, no-store', keeping 'no-transform' (a stream of events must not be compressed).
 */
function privateOf(own: string): string {
  return /\bno-transform\b/i.test(own) ? `${PRIVATE_NO_STORE}, no-transform` : PRIVATE_NO_STORE;
}

/**
 * `Cache-Control: private, no-store` on what a signed-in person is sent, and on every /admin and
 * /profile answer and on the pages a link's token opens (TOKEN_PATH): every page and `.data`
 * answer, and any other answer that says nothing about caching or nothing public (a JSON or CSV
 * answer, a 'no-store' one; files from /media or /assets keep their own public caching, since
 * they are the same for everyone). tests/e2e/route-walk.test.ts walks every route to keep it so. Storefront pages for visitors without cookies come from
 * the page cache instead and are untouched (docs/decisions/0012).
 */
export function privateResponses() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isPrivateRequest(req)) return next();
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (!res.headersSent) {
        const type = String(res.getHeader("content-type") ?? "");
        const own = res.getHeader("cache-control");
        if (PAGE_TYPE.test(type) || own === undefined) res.setHeader("Cache-Control", PRIVATE_NO_STORE);
        else if (!/\bpublic\b/i.test(String(own))) res.setHeader("Cache-Control", privateOf(String(own)));
      }
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
