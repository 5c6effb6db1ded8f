import type { NextFunction, Request, Response } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { logger } from "../logger.server";

/** The methods the shop answers; React Router turns anything else into an error (TRACE a 500). */
const HANDLED = new Set(["GET", "HEAD", "POST"]);
/** Every page takes GET and HEAD, and POST (its action, or React Router's own 405 without one). */
const PAGE = "GET, HEAD, POST";

type Built = NonNullable<ServerBuild["routes"][string]>;

/** The build's flat route list as the nested routes matchRoutes walks. */
function routeTree(routes: ServerBuild["routes"], parentId?: string): (RouteObject & { id: string })[] {
  return Object.values(routes)
    .filter((r): r is Built => r !== undefined && r.parentId === parentId)
    .map((r) => {
      const children = routeTree(routes, r.id);
      return r.index
        ? { id: r.id, index: true as const, path: r.path, caseSensitive: r.caseSensitive }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children };
    });
}

/** What a route module takes: a page all of GET, HEAD and POST; a resource route what it exports. */
function methodsOf(route: Built | undefined): string {
  const module = route?.module as { default?: unknown; loader?: unknown; action?: unknown } | undefined;
  if (!module || module.default) return PAGE;
  const methods = [...(module.loader ? ["GET", "HEAD"] : []), ...(module.action ? ["POST"] : [])];
  return methods.length ? methods.join(", ") : PAGE;
}

/**
 * A method the matched route does not take is answered here with 405 and an Allow header naming
 * the ones it does: any method other than GET, HEAD and POST (TRACE, OPTIONS, PUT…) anywhere, GET
 * and HEAD on a resource route that only takes POST (an admin form's endpoint, /api/checkout),
 * and POST on one that only reads. Without this React Router answers the GET with a 400
 * 'Unexpected Server Error'. Pages take all three (a page without an action gets React Router's
 * own 405). It is an ordinary refusal: the request's summary line (info) is its only log line,
 * with no stack.
 */
/** A UUID path segment: no route has one as a static segment, so any UUID matches as any other. */
const UUID_SEGMENT = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;
const SAMPLE_UUID = "/00000000-0000-0000-0000-000000000000";
/** Distinct page paths remembered; past it the memory starts again (blog slugs, unknown paths). */
const REMEMBERED_PATHS = 5_000;

export function allowedMethods(build: Pick<ServerBuild, "routes">, match: typeof matchRoutes = matchRoutes) {
  const tree = routeTree(build.routes);
  if (Object.values(build.routes).some((r) => r?.path && /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(r.path)))
    throw new Error("A route's path segment looks like a UUID: allowedMethods cannot share answers between UUID paths.");
  // matchRoutes flattens and ranks the whole route tree on every call (React Router keeps its own
  // ranked copy, but does not export a way to reuse one): a quarter of the server's CPU on a
  // rendered data request. The answer depends only on the path, and a product's or an order's id
  // stands for any other, so each path shape is matched once.
  const known = new Map<string, string>();
  const allowFor = (pathname: string) => {
    // A client-side navigation's data request names the page it is for.
    const page = (pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "")).replace(UUID_SEGMENT, SAMPLE_UUID);
    const remembered = known.get(page);
    if (remembered) return remembered;
    const matches = match(tree, page);
    const leaf = matches?.[matches.length - 1]?.route as { id: string } | undefined;
    const allow = methodsOf(leaf ? build.routes[leaf.id] : undefined);
    if (known.size >= REMEMBERED_PATHS) known.clear();
    known.set(page, allow);
    return allow;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const allow = allowFor(req.path);
    if (HANDLED.has(req.method) && (allow === PAGE || allow.split(", ").includes(req.method))) return next();
    logger.info({ method: req.method, path: req.path, allow }, "method not allowed");
    res.setHeader("Allow", allow);
    res.status(405).type("text/plain").send("Method Not Allowed");
  };
}
