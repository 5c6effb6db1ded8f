import { randomFillSync } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * Headers on every response. Scripts run only from our own origin or with this request's nonce
 * (React Router's inline hydration scripts carry it); a page served from the page cache names
 * its inline scripts by hash instead, since one rendering is sent to many visitors. Stripe
 * Checkout is a full-page redirect, so the payment page needs no third-party script; the blog
 * may embed YouTube and Vimeo.
 */
export function contentSecurityPolicy(inline: { nonce: string } | { hashes: string[] }, dev: boolean): string {
  const allowed = "nonce" in inline ? [`'nonce-${inline.nonce}'`] : inline.hashes.map((h) => `'sha256-${h}'`);
  const script = dev ? `'self' 'unsafe-inline' 'unsafe-eval'` : ["'self'", ...allowed].join(" ");
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self' https://checkout.stripe.com",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 16 random bytes a nonce, drawn 256 nonces at a time: one call into OpenSSL per 256 requests. */
const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let drawn = pool.length;

/** A fresh nonce for each call; no bytes are ever handed out twice. */
export function cspNonce(): string {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += NONCE_BYTES;
  return pool.toString("base64", drawn - NONCE_BYTES, drawn);
}

/**
 * `https`: the shop's PUBLIC_URL is https. Only then is Strict-Transport-Security sent: over
 * plain http a browser ignores it, and it would promise an https that may not exist.
 */
export function securityHeaders(opts: { dev: boolean; https: boolean }) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = cspNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce }, opts.dev));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
    if (opts.https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
