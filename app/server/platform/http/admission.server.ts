import type { NextFunction, Request, Response } from "express";
import { RETRY_AFTER_SECONDS, UNAVAILABLE } from "../db/unavailable.server";
import { getRootLogger } from "../logger.server";

/**
 * Admission control in front of React Router (docs/decisions/0016). At most `concurrency`
 * requests are worked on at once; the others wait their turn in a queue of at most `queue`
 * requests, each for at most `maxWaitMs`. Only a request past those bounds is refused, with a
 * 503 and Retry-After, before it costs anything: no database connection, no rendering. Without
 * it a burst opened every rendering at once, they all waited for the pool's few connections, and
 * those that waited longer than the pool's connection timeout failed.
 *
 * Static files and pages from the page cache are answered before this middleware and never wait.
 *
 * Searches wait in a lane of their own. A search renders a listing nobody else asked for (no
 * cache can share it), so a burst of them could fill the queue ahead of everything else; while
 * both lanes wait, three turns of four go to the other requests (product pages, the cart,
 * checkouts, the admin), and every fourth to a search, so neither lane is starved. And at most
 * `searchConcurrency` searches are worked on at once: each holds a database connection for its
 * whole transaction, so turns alone would still let a burst take every connection of the pool
 * and most of the CPU, and a checkout, admitted at once, would then wait behind them for each of
 * its statements. A few searches at a time keep both cores busy; the rest wait in their lane.
 */

export type AdmissionOptions = {
  /** Requests worked on at once. */
  concurrency: number;
  /** Requests that may wait for a turn; one more is refused at once. */
  queue: number;
  /** The longest a request waits for a turn before it is refused. */
  maxWaitMs: number;
  /** The HTML a refused page request gets (the shop's "briefly unavailable" page). */
  unavailablePage: () => string;
  /** Requests that never wait (the health check, uploaded files). */
  exempt?: (req: Request) => boolean;
  /** Which requests wait in the searches' lane (default: `isSearch`). */
  isSearch?: (req: Request) => boolean;
  /** Searches worked on at once, within `concurrency` (default: all of it). */
  searchConcurrency?: number;
};

export type AdmissionStats = { inFlight: number; searchesInFlight: number; waiting: number; refused: number };

/** Paths that skip the queue: the load balancer's health and readiness checks and files from disk storage. */
export const EXEMPT = /^\/(?:healthz$|readyz$|media\/)/;

/** A storefront search: the listing, its data request or its Load More, with a search term. */
export function isSearch(req: Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.path !== "/shop" && req.path !== "/shop.data" && req.path !== "/api/products") return false;
  const term = req.query.search;
  return typeof term === "string" && term.trim() !== "";
}

/** While both lanes wait, turns the other requests get before a search gets one. */
const TURNS_BEFORE_A_SEARCH = 3;

type Waiter = { admit: () => void; refuse: () => void };

export function admissionControl(opts: AdmissionOptions) {
  const log = getRootLogger();
  const exempt = opts.exempt ?? ((req: Request) => EXEMPT.test(req.path));
  const searchLane = opts.isSearch ?? isSearch;
  // Insertion-ordered: each lane is first come, first served.
  const lanes = { other: new Set<Waiter>(), search: new Set<Waiter>() };
  const waitingCount = () => lanes.other.size + lanes.search.size;
  /** Turns the other lane took in a row while a search could have gone. */
  let othersInARow = 0;
  let inFlight = 0;
  let searchesInFlight = 0;
  const searchCap = Math.min(opts.searchConcurrency ?? opts.concurrency, opts.concurrency);
  let refused = 0;
  let unreported = 0;
  let reportTimer: ReturnType<typeof setTimeout> | undefined;

  // One log line per few seconds of refusals, not one per request of a burst.
  const reportRefusal = (why: string) => {
    refused++;
    unreported++;
    if (reportTimer) return;
    reportTimer = setTimeout(() => {
      reportTimer = undefined;
      log.warn({ refused: unreported, inFlight, waiting: waitingCount(), why }, "busy: requests refused with 503");
      unreported = 0;
    }, 5_000);
    reportTimer.unref();
  };

  // Invariant: while a turn is free, the only waiters are searches held back by their cap, so an
  // arrival that finds a free turn its lane may take goes ahead of nobody who could have had it.
  const takeTurn = (): Waiter | undefined => {
    const searchMayGo = lanes.search.size > 0 && searchesInFlight < searchCap;
    if (!searchMayGo && lanes.other.size === 0) return undefined;
    const searchFirst = searchMayGo && (lanes.other.size === 0 || othersInARow >= TURNS_BEFORE_A_SEARCH);
    const lane = searchFirst ? lanes.search : lanes.other;
    othersInARow = searchFirst || !searchMayGo ? 0 : othersInARow + 1;
    const first = lane.values().next().value!;
    lane.delete(first);
    return first;
  };
  const next = () => {
    while (inFlight < opts.concurrency) {
      const waiter = takeTurn();
      if (!waiter) return;
      waiter.admit();
    }
  };

  const middleware = (req: Request, res: Response, proceed: NextFunction) => {
    if (exempt(req)) return proceed();

    const search = searchLane(req);
    let held = false;
    const release = () => {
      if (!held) return;
      held = false;
      inFlight--;
      if (search) searchesInFlight--;
      next();
    };
    const admit = () => {
      held = true;
      inFlight++;
      if (search) searchesInFlight++;
      // 'close' follows the end of the response, and also a client that went away mid-way.
      res.once("close", release);
      // A stream of events stays open for as long as the page does: it holds no turn once its
      // headers are out.
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        const result = (writeHead as (...a: unknown[]) => Response).apply(this, args);
        if (/^text\/event-stream/i.test(String(res.getHeader("content-type") ?? ""))) release();
        return result;
      } as Response["writeHead"];
      proceed();
    };

    if (inFlight < opts.concurrency && (!search || searchesInFlight < searchCap)) return admit();
    if (waitingCount() >= opts.queue) {
      reportRefusal("queue full");
      return refuse(req, res, opts.unavailablePage);
    }
    const lane = search ? lanes.search : lanes.other;
    const waiter: Waiter = {
      admit: () => {
        clearTimeout(timer);
        res.off("close", gone);
        admit();
      },
      refuse: () => {
        lane.delete(waiter);
        res.off("close", gone);
        reportRefusal("waited too long");
        refuse(req, res, opts.unavailablePage);
      },
    };
    const timer = setTimeout(waiter.refuse, opts.maxWaitMs);
    // A client that gave up leaves the queue: nobody would read its page.
    const gone = () => {
      clearTimeout(timer);
      lane.delete(waiter);
    };
    res.once("close", gone);
    lane.add(waiter);
  };

  return Object.assign(middleware, {
    stats: (): AdmissionStats => ({ inFlight, searchesInFlight, waiting: waitingCount(), refused }),
  });
}

/**
 * The refusal: 503 with Retry-After. A page request gets the shop's error page; a client-side
 * navigation's data request (`.data`) a text body, which React Router shows on the same error
 * page; an API client `{ error }` as JSON.
 */
function refuse(req: Request, res: Response, page: () => string) {
  if (res.headersSent || res.destroyed) return;
  res.status(503);
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  const message = UNAVAILABLE.message;
  if (req.path.endsWith(".data")) {
    res.type("text/plain").send(message);
  } else if ((req.method === "GET" || req.method === "HEAD" || req.method === "POST") && /text\/html/i.test(req.get("accept") ?? "")) {
    res.type("text/html").send(page());
  } else {
    res.json({ error: message });
  }
}
