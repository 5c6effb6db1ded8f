import type { Request as ExpressRequest, RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { encodeListingData } from "./turbo-stream";

/**
 * The shop listing's data request (`/shop.data`: a search, a filter, a sort, a page, fetched by
 * the storefront's client-side navigation) answered by calling the three loaders React Router
 * would call, without React Router's request pipeline around them: its two route matches, the
 * second Web Request it makes, its static handler and its streamed response were most of such a
 * request's CPU (docs/decisions/0040).
 *
 * Only the plain case is answered here: a GET from a visitor who is not signed in, every loader
 * returning data (no redirect, no error, no outage), values the encoder knows. Anything else goes
 * on to React Router, which runs the loaders again and answers as it always has. The answer is
 * React Router's own, byte for byte (tests/e2e/listing-data.test.ts starts the shop with and
 * without this path and compares both); the only difference is its framing: one write with a
 * Content-Length instead of a chunked stream.
 */

const PATH = "/shop.data";
/** The matched routes of /shop, outermost first, as React Router lists them. */
const ROUTE_IDS = ["root", "routes/store/layout", "routes/store/shop"] as const;

type Loader = (args: { request: Request; params: Record<string, string>; context: unknown }) => unknown;
type HeadersFn = (args: { loaderHeaders: Headers; parentHeaders: Headers; actionHeaders: Headers; errorHeaders: Headers | undefined }) => HeadersInit;

/** What `data(value, init)` returns (React Router's DataWithResponseInit), told apart by shape. */
type WithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isWithInit = (v: unknown): v is WithInit =>
  typeof v === "object" && v !== null && (v as { type?: unknown }).type === "DataWithResponseInit";

/** The URL React Router gives the loaders: no `.data`, no `_routes`, the query as URLSearchParams writes it. */
function loaderUrl(req: ExpressRequest): URL {
  const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
  url.pathname = "/shop";
  url.searchParams.delete("_routes");
  url.search = url.searchParams.toString();
  return url;
}

/** The request's headers as name-value pairs, which a Web Request takes without a Headers of its own first. */
function headerPairs(req: ExpressRequest): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) pairs.push([key, v]);
    else if (value) pairs.push([key, value]);
  }
  return pairs;
}

/**
 * The loaders' Request, whose `signal` is made when a loader first asks for it. A Web Request
 * given a signal follows it with listeners and a finalizer of its own, which cost two thirds of
 * making the Request (30 us against 10), and no storefront loader reads it yet.
 */
function loaderRequest(req: ExpressRequest, res: Parameters<RequestHandler>[1]): Request {
  const request = new Request(loaderUrl(req).href, { headers: headerPairs(req) });
  let signal: AbortSignal | undefined;
  Object.defineProperty(request, "signal", {
    get() {
      if (!signal) {
        const controller = new AbortController();
        signal = controller.signal;
        // Only a client gone before the answer aborts the loaders (an abort builds a DOMException).
        const abort = () => {
          if (!res.writableFinished) controller.abort();
        };
        if (res.destroyed) abort();
        else res.on("close", abort);
      }
      return signal;
    },
  });
  return request;
}

export function listingData(build: ServerBuild, loadContext: (res: Parameters<RequestHandler>[1]) => unknown): RequestHandler {
  const routes = ROUTE_IDS.map((id) => build.routes[id]);
  const loaders = routes.map((r) => r?.module.loader as Loader | undefined);
  const headersFns = routes.map((r) => r?.module.headers as HeadersFn | undefined);
  // A route renamed or moved: nothing is answered here (and the comparison test fails).
  const ready = routes[2]?.path === "shop" && routes[2].parentId === ROUTE_IDS[1] && routes[1]?.parentId === ROUTE_IDS[0] && loaders.every(Boolean);

  return async (req, res, next) => {
    if (!ready || req.method !== "GET" || req.path !== PATH) return next();
    // A signed-in visitor's root loader reads the session and may renew its cookie: React Router.
    if (req.headers.cookie?.includes("session_token")) return next();
    const routesParam = req.query._routes;
    // Given twice (or in brackets), React Router reads the first and Express an array: React Router.
    if (routesParam !== undefined && typeof routesParam !== "string") return next();
    const wanted = routesParam !== undefined ? new Set(routesParam.split(",")) : null;
    if (wanted && [...wanted].some((id) => !(ROUTE_IDS as readonly string[]).includes(id))) return next();

    const request = loaderRequest(req, res);
    const context = loadContext(res);
    let values: unknown[];
    try {
      // Side by side, as React Router runs a navigation's loaders.
      values = await Promise.all(
        ROUTE_IDS.map((id, i) => (wanted && !wanted.has(id) ? undefined : loaders[i]!({ request, params: {}, context }))),
      );
    } catch {
      // A redirect, a refusal, an outage: React Router answers those.
      return next();
    }
    if (values.some((v) => v instanceof Response)) return next();

    const result: Record<string, { data: unknown }> = {};
    const loaderHeaders: Headers[] = [];
    ROUTE_IDS.forEach((id, i) => {
      const value = values[i];
      loaderHeaders.push(new Headers(isWithInit(value) ? (value.init?.headers ?? undefined) : undefined));
      if (wanted && !wanted.has(id)) return;
      if (isWithInit(value) && value.init?.status !== undefined && value.init.status !== 200) return;
      result[id] = { data: isWithInit(value) ? value.data : value };
    });
    // A loader that chose a status of its own: React Router.
    if (Object.keys(result).length !== (wanted ? wanted.size : ROUTE_IDS.length)) return next();
    // Cookies set by a loader go through React Router, which merges them as it knows how.
    if (loaderHeaders.some((h) => h.has("set-cookie"))) return next();

    const body = encodeListingData(result);
    if (body === null) return next();

    // The routes' `headers`, outermost first, each given its parent's (React Router's document headers).
    const headers = ROUTE_IDS.reduce((parentHeaders, _id, i) => {
      const fn = headersFns[i];
      if (!fn) return new Headers(parentHeaders);
      return new Headers(fn({ loaderHeaders: loaderHeaders[i]!, parentHeaders, actionHeaders: new Headers(), errorHeaders: undefined }));
    }, new Headers());
    headers.set("X-Remix-Response", "yes");
    headers.set("Content-Type", "text/x-script");
    res.status(200);
    for (const [key, value] of headers.entries()) res.append(key, value);
    // Said, so the answer goes in one write (compression, when the client takes it, drops it).
    const bytes = Buffer.from(body, "utf8");
    res.setHeader("Content-Length", bytes.length);
    res.end(bytes);
  };
}
