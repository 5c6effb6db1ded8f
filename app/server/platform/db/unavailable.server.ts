import type { Refusal } from "../refusal.server";

/**
 * Telling "the database is unreachable right now" apart from a bug, so an outage answers 503
 * (try again shortly) instead of 500. The pool reconnects by itself once the server is back.
 */

// Socket-level failures while connecting or mid-query.
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// PostgreSQL SQLSTATEs: connection exceptions (08…), shutdown and start-up (57P01–57P03), too many connections.
const SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03", "53300"]);
// What node-postgres says when a socket dies or the pool cannot connect in time.
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  // Drizzle wraps the driver's error in `cause`; follow the chain a few steps.
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code))) return true;
    if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  }
  return false;
}

export const RETRY_AFTER_SECONDS = 5;

/**
 * What a request gets during an outage: the error boundary's "briefly unavailable" page, asking
 * to retry shortly (app/routes/_edge/errors.server.ts's rethrowIfDatabaseUnavailable answers it).
 */
export const UNAVAILABLE: Refusal = { kind: "unavailable", message: "The shop is briefly unavailable", retryAfterSeconds: RETRY_AFTER_SECONDS };
