import type { NextFunction, Request, Response } from "express";
import { publicUrl } from "../env.server";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** Stripe calls its webhook from its own servers, signed; it is checked by signature instead. */
const CROSS_SITE_ALLOWED = [/^\/api\/webhooks\//];

/**
 * CSRF: a state-changing request whose Origin (or, without it, Referer) is another site is
 * refused. Cookies are SameSite=Lax too; this closes the gaps Lax leaves (top-level POSTs from
 * old browsers, same-site subdomains).
 */
export function sameOriginOnly() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE.has(req.method) || CROSS_SITE_ALLOWED.some((re) => re.test(req.path))) return next();
    const origin = req.get("origin") ?? refererOrigin(req.get("referer"));
    if (!origin) return next(); // Non-browser clients (curl, server-to-server) send neither.
    const allowed = new Set([new URL(publicUrl()).origin, `${req.protocol}://${req.get("host")}`]);
    if (allowed.has(origin)) return next();
    res.status(403).type("text/plain").send("Cross-site request refused");
  };
}

function refererOrigin(referer: string | undefined) {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}
