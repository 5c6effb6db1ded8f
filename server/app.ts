import "react-router";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import path from "node:path";
import * as serverBuild from "virtual:react-router/server-build";
import { sessionCookieRefresh } from "~/server/auth/session-refresh.server";
import { getEnv } from "~/server/env.server";
import { getDb } from "~/server/db/client.server";
import { pageCache } from "~/server/http/page-cache.server";
import { requestLog } from "~/server/http/request-log.server";
import { sameOriginOnly } from "~/server/http/same-origin.server";
import { securityHeaders } from "~/server/http/security-headers.server";

export { boot, shutdown } from "~/server/boot.server";
export { beginShutdown } from "~/server/shutdown.server";

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
  // Development renders every request afresh, so code changes show at once.
  const cache = pageCache({ maxBytes: dev ? 0 : env.PAGE_CACHE_MB * 1024 * 1024, pool: () => getDb().$client });
  // A cached page is answered here, already compressed, without the work below.
  app.use(cache.serve);
  app.use(compression());
  app.use(securityHeaders({ dev, production: env.NODE_ENV === "production" }));
  app.use(sameOriginOnly());
  app.use(sessionCookieRefresh());
  // The socket address, for rate limits; loaders only see a Request, so it travels as a header
  // that a client cannot set (any incoming value is replaced).
  app.use((req, _res, next) => {
    req.headers["x-shop-client-ip"] = (env.TRUST_PROXY ? req.ip : req.socket.remoteAddress) ?? "unknown";
    next();
  });
  if (!dev) {
    const client = path.resolve(env.SHOP_BUILD_DIR, "client");
    // Fingerprinted by Vite, so they can be cached for a year.
    app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(client, { maxAge: "1h", index: false }));
  }
  // After compression: the cache keeps the page as React renders it.
  app.use(cache.capture);
  app.use(
    createRequestHandler({
      // The build itself, not a function returning it: given a function, React Router derives
      // its route tables again on every request (about a tenth of a page's CPU).
      build: serverBuild,
      mode: dev ? "development" : "production",
      getLoadContext: (_req, res) => ({
        requestId: String(res.locals.requestId ?? ""),
        cspNonce: String(res.locals.cspNonce ?? ""),
      }),
    }),
  );
  return app;
}
