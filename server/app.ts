import "react-router";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import path from "node:path";
import * as serverBuild from "virtual:react-router/server-build";
import { visitCounting } from "~/server/insight/analytics/visits-middleware.server";
import { sessionCookieRefresh } from "~/server/people/auth/session-refresh.server";
import { sessionRoleReader } from "~/server/platform/http/session-viewer.server";
import { getEnv, publicUrl } from "~/server/platform/env.server";
import { getDb } from "~/server/platform/db/client.server";
import { admissionControl } from "~/server/platform/http/admission.server";
import { allowedMethods } from "~/server/platform/http/allowed-methods.server";
import { cdnHeaders } from "~/server/platform/http/cdn-headers.server";
import { outageAs503 } from "~/server/platform/http/outage.server";
import { pageCache } from "~/server/platform/http/page-cache.server";
import { shareStorefrontChangeLog } from "~/server/platform/http/storefront-changes.server";
import { getAuthSecret } from "~/server/platform/secrets.server";
import { privateResponses } from "~/server/platform/http/private-responses.server";
import { requestLog } from "~/server/platform/http/request-log.server";
import { sameOriginOnly } from "~/server/platform/http/same-origin.server";
import { securityHeaders } from "~/server/platform/http/security-headers.server";
import { closeAfterUnreadBody } from "~/server/platform/http/unread-body.server";
import { listingData } from "./listing-data";
import { publicFiles } from "./public-files";
import { staticAssets } from "./static-assets";
import { unavailablePage } from "~/components/unavailable-page";

export { boot, shutdown } from "~/server/boot.server";
export { beginShutdown } from "~/server/platform/shutdown.server";
export { warmUpMailTemplates } from "~/server/platform/mail/templates/load.server";

declare module "react-router" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
  }
}

/** The shop as an Express app: headers, request ids, static files, then React Router. */
export function createApp({ dev }: { dev: boolean }) {
  const env = getEnv();
  const app = express();
  app.disable("x-powered-by");
  // One reverse proxy in front: the client is the address it appended to X-Forwarded-For.
  // `true` would trust every entry, and the left-most one is whatever the client wrote.
  if (env.TRUST_PROXY) app.set("trust proxy", 1);
  app.use(requestLog());
  // A refused body (413), or one answered before it arrived, closes its connection after the answer.
  app.use(closeAfterUnreadBody());
  // Before the page cache, so a page it answers is counted too (docs/rules/analytics.md, Visits).
  app.use(visitCounting());
  // Development renders every request afresh, so code changes show at once.
  const pool = () => getDb().$client;
  const cache = pageCache({
    maxBytes: dev ? 0 : env.PAGE_CACHE_MB * 1024 * 1024,
    pool,
    // One reader of the change log for the page cache and the settings and categories pages
    // remember (remembered-reads.server.ts).
    changes: shareStorefrontChangeLog(pool),
    sessionRole: sessionRoleReader(() => getDb().$client, getAuthSecret),
  });
  // What a CDN may keep (public, with surrogate keys) and what it must not (docs/decisions/0037):
  // before the page cache, so a page it answers says the same as the page rendered afresh.
  if (!dev) app.use(cdnHeaders({ sMaxAge: env.CDN_S_MAXAGE, staleWhileRevalidate: env.CDN_STALE_WHILE_REVALIDATE }));
  // A cached page is answered here, already compressed, without the work below.
  app.use(cache.serve);
  app.use(compression());
  app.use(securityHeaders({ dev, https: publicUrl(env).startsWith("https://") }));
  // TRACE, OPTIONS and other methods no route takes: 405 with Allow, before any route runs.
  app.use(allowedMethods(serverBuild));
  app.use(sameOriginOnly());
  app.use(sessionCookieRefresh());
  // Signed-in visitors and /admin, /profile: Cache-Control: private, no-store.
  app.use(privateResponses());
  // The socket address, for rate limits; loaders only see a Request, so it travels as a header
  // that a client cannot set (any incoming value is replaced).
  app.use((req, _res, next) => {
    req.headers["x-shop-client-ip"] = (env.TRUST_PROXY ? req.ip : req.socket.remoteAddress) ?? "unknown";
    next();
  });
  if (!dev) {
    const client = path.resolve(env.SHOP_BUILD_DIR, "client");
    // Fingerprinted by Vite, so they can be cached for a year; sent from memory as the build
    // compressed them, and by express.static for what that does not answer (a range request).
    const assets = path.join(client, "assets");
    app.use("/assets", staticAssets(assets), express.static(assets, { immutable: true, maxAge: "1y", index: false }));
    app.use(publicFiles(client));
  }
  // Everything below works on the database: at most so many requests at once, the others wait
  // their turn, and past the queue's bounds a 503 (docs/decisions/0016). Static files and cached
  // pages were answered above and never wait.
  app.use(
    admissionControl({
      concurrency: env.REQUEST_CONCURRENCY ?? env.DATABASE_POOL_SIZE * 4,
      searchConcurrency: env.REQUEST_SEARCH_CONCURRENCY ?? Math.ceil(env.DATABASE_POOL_SIZE / 2),
      queue: env.REQUEST_QUEUE,
      maxWaitMs: env.REQUEST_QUEUE_WAIT_MS,
      unavailablePage,
    }),
  );
  // A database outage that escapes a resource route is a 503 too (pages: app/entry.server.tsx).
  app.use(outageAs503());
  // After compression: the cache keeps the page as React renders it.
  app.use(cache.capture);
  const loadContext = (res: express.Response) => ({
    requestId: String(res.locals.requestId ?? ""),
    cspNonce: String(res.locals.cspNonce ?? ""),
  });
  // The shop listing's data requests, answered without React Router's pipeline when they are
  // plain (docs/decisions/0040); everything else, and anything unusual, goes on to React Router.
  if (env.LISTING_DATA_DIRECT === "on") app.use(listingData(serverBuild, loadContext));
  app.use(
    createRequestHandler({
      // The build itself, not a function returning it: given a function, React Router derives
      // its route tables again on every request (about a tenth of a page's CPU).
      build: serverBuild,
      mode: dev ? "development" : "production",
      getLoadContext: (_req, res) => loadContext(res),
    }),
  );
  return app;
}
