import type { NextFunction, Request, Response } from "express";
import { isbot } from "isbot";
import { getEnv, getRootLogger } from "../../platform/index.server";
import { foundNothing, sameSearchAsReferer, SEARCH_RESULTS_HEADER, searchOf } from "./search-terms.server";
import { isPrefetch, isSamePageReload, pageViewOf } from "./visits-path.server";
import { visitCounter, type VisitCounter } from "./visits.server";

/** React Router's single-fetch answer to a `.data` request. */
const DATA_TYPE = "text/x-script";

/** User agents already checked: isbot is a large regular expression, and browsers' agents repeat. */
const agents = new Map<string, boolean>();
const MEMO_AGENTS = 1000;
const MEMO_AGENT_LENGTH = 300;

/** isbot, remembered for the last thousand or so short user agents. */
export function isBotAgent(userAgent: string): boolean {
  const known = agents.get(userAgent);
  if (known !== undefined) return known;
  const bot = isbot(userAgent);
  if (userAgent.length <= MEMO_AGENT_LENGTH) {
    if (agents.size >= MEMO_AGENTS) agents.clear();
    agents.set(userAgent, bot);
  }
  return bot;
}

/** The client's address as the rest of the shop sees it (x-shop-client-ip in server/app.ts). */
export function clientAddress(req: Request, trustProxy: boolean): string {
  return (trustProxy ? req.ip : req.socket.remoteAddress) ?? "unknown";
}

/**
 * Counts storefront page views (docs/rules/analytics.md, Visits). Placed before the page cache,
 * so a page answered from the cache counts like a rendered one; it decides from the request what
 * it would count and records it when the answer has gone out as a 200 page (HTML, or the data of
 * a client-side navigation), so a 404, a redirect or an error counts nothing. It adds no wait:
 * recording is a few map updates, and the database sees the counts later, in batches.
 */
export function visitCounting(counter: VisitCounter | null = visitCounter()) {
  if (!counter) return (_req: Request, _res: Response, next: NextFunction) => next();
  const trustProxy = getEnv().TRUST_PROXY;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET") return next();
    const view = pageViewOf(req.path);
    if (!view) return next();
    const userAgent = req.headers["user-agent"] ?? "";
    // Browsers always send a user agent; scripts often send none.
    if (!userAgent || isBotAgent(userAgent) || isPrefetch(req.headers)) return next();
    const at = req.url.indexOf("?");
    const search = at < 0 ? "" : req.url.slice(at);
    const referer = req.headers.referer;
    const host = req.headers.host;
    if (view.data && isSamePageReload(view, search, referer, host)) return next();
    res.once("finish", () => {
      try {
        if (res.statusCode !== 200) return;
        const type = String(res.getHeader("content-type") ?? "");
        if (!type.startsWith(view.data ? DATA_TYPE : "text/html")) return;
        counter.pageView(view.path, { address: clientAddress(req, trustProxy), userAgent });
        if (view.path !== "/shop") return;
        const term = searchOf(search);
        const empty = foundNothing(res.getHeader(SEARCH_RESULTS_HEADER));
        if (term && empty !== null && !sameSearchAsReferer(term, referer, host)) counter.search(term, empty);
      } catch (err) {
        getRootLogger().warn({ err: (err as Error).message }, "visit counting: a page view was not counted");
      }
    });
    next();
  };
}
