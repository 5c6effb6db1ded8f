import { PassThrough, Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type AppLoadContext, type EntryContext } from "react-router";
import { unavailablePage } from "~/components/unavailable-page";
import { NonceContext } from "~/lib/nonce";
import { builtStylesheet, isDatabaseUnavailable, logger, markDatabaseUnavailable, metDatabaseOutage, RETRY_AFTER_SECONDS, rewriteForFirstPaint, UNAVAILABLE } from "~/server/platform/http/index.server";

export const streamTimeout = 5_000;

/** Whether a loader handed the page a promise to stream in (an admin page's <Await>). */
function streamsData(context: EntryContext) {
  const data = context.staticHandlerContext.loaderData ?? {};
  return Object.values(data).some(
    (value) => value && typeof value === "object" && Object.values(value).some((v) => v instanceof Promise),
  );
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (metDatabaseOutage()) {
    // A loader or action met a database outage (or no free connection in time) and let it out:
    // a 503, never a 500. Thrown, React Router renders the page again with the error boundary
    // showing this response ("briefly unavailable"), and calls here again with its status.
    if (responseStatusCode !== 503) throw unavailableResponse();
    responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  const userAgent = request.headers.get("user-agent");
  // A page with nothing to stream is sent whole: React's many small chunks would otherwise each
  // pass through the web stream, gzip (flushed per chunk) and a socket write — about a fifth of
  // a storefront page's CPU. Pages that stream deferred data keep streaming, except to bots.
  const whole = !streamsData(routerContext) || (userAgent !== null && isbot(userAgent)) || routerContext.isSpaMode;
  const readyOption: keyof RenderToPipeableStreamOptions = whole ? "onAllReady" : "onShellReady";
  const storefront = routerContext.staticHandlerContext.matches.some((m) => m.route.id === "routes/store/layout");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
      // Nothing sent yet: the shop was too busy to render the page in time (a burst of renderings
      // queued behind each other). That is a refusal to try again shortly, as admission control
      // gives, not an error of the page: a 503 with the shop's own page, before the abort.
      if (!shellRendered) {
        logger.warn({ url: request.url, waitedMs: streamTimeout + 1000 }, "too busy to render in time: answered 503");
        resolve(tooBusy(responseHeaders));
      }
      abort();
    }, streamTimeout + 1000);
    const done = () => {
      clearTimeout(timeoutId);
      timeoutId = undefined;
    };

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (whole) {
            const chunks: Buffer[] = [];
            const sink = new Writable({
              write(chunk: Buffer, _encoding, callback) {
                chunks.push(chunk);
                callback();
              },
              final(callback) {
                done();
                const body = storefront ? forFirstPaint(Buffer.concat(chunks)) : Buffer.concat(chunks);
                responseHeaders.set("Content-Length", String(body.byteLength));
                resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
                callback();
              },
            });
            pipe(sink);
            return;
          }
          const body = new PassThrough({
            final(callback) {
              done();
              callback();
            },
          });
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render error");
        },
      },
    );
  });
}

/**
 * A storefront page paints from its HTML alone: its CSS inline, its scripts fetched after
 * (first-paint.server.ts). Should the rewrite fail, the page goes out as rendered.
 */
function forFirstPaint(body: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  try {
    return Buffer.from(rewriteForFirstPaint(body.toString("utf8"), builtStylesheet));
  } catch (err) {
    logger.warn({ err }, "first-paint rewrite failed; page sent as rendered");
    return body;
  }
}

/** Unexpected errors go to the log with the request id; the page shows a friendly message. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (ourUnavailable.has(error as object)) return;
  if (isDatabaseUnavailable(error)) {
    // Answered as 503: by handleRequest, handleDataRequest, or outageAs503 for resource routes.
    markDatabaseUnavailable();
    logger.warn({ err: (error as Error).message, url: request.url }, "database unavailable");
    return;
  }
  if (request.signal.aborted) return;
  // React Router's own refusals (a POST to a page without an action: 405; an unknown route: 404)
  // are answers to a client's mistake, not errors of ours.
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.info({ status: error.status, method: request.method, url: request.url }, "request refused by the router");
    return;
  }
  logger.error({ err: error, url: request.url }, "unhandled error");
}

/**
 * A client-side navigation's data request that met a database outage: a plain 503, which React
 * Router's client shows on the error page as "briefly unavailable" (a body it cannot decode as
 * loader data becomes an error response with that status).
 */
export function handleDataRequest(response: Response) {
  if (!metDatabaseOutage() || response.status < 500) return response;
  return new Response(UNAVAILABLE.message, {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}

/** The refusal a page gets when its rendering did not start in time; a loader's cookies are kept. */
function tooBusy(loaderHeaders: Headers): Response {
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" });
  for (const cookie of loaderHeaders.getSetCookie()) headers.append("Set-Cookie", cookie);
  return new Response(unavailablePage(), { status: 503, statusText: "Service Unavailable", headers });
}

const ourUnavailable = new WeakSet<object>();

function unavailableResponse() {
  const response = new Response(UNAVAILABLE.message, { status: 503, statusText: "Service Unavailable" });
  ourUnavailable.add(response);
  return response;
}
