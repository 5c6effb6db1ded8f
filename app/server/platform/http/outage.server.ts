import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";
import { RETRY_AFTER_SECONDS } from "../db/unavailable.server";

/**
 * A database outage (or a pool that could not hand out a connection in time) is a 503, whichever
 * loader or action it escaped from. app/entry.server.tsx's handleError marks the request when it
 * sees one (markDatabaseUnavailable); pages and data requests are then answered as 503 there.
 * Resource routes (the JSON APIs) have no such hook: React Router answers their uncaught errors
 * with a bare 500, which outageAs503, placed before React Router, turns into a 503 with
 * Retry-After when the request met an outage.
 */

type Outage = { databaseUnavailable: boolean };

const g = globalThis as unknown as { __shopOutage?: AsyncLocalStorage<Outage> };
// On globalThis so the dev server's reloaded modules and the server build share one store.
const scope = (g.__shopOutage ??= new AsyncLocalStorage<Outage>());

/** Runs a request's handling with its own outage mark (the middleware does; tests may). */
export function withOutageMark<T>(fn: () => T, outage: Outage = { databaseUnavailable: false }): T {
  return scope.run(outage, fn);
}

/** The current request met a database outage (called by handleError). */
export function markDatabaseUnavailable() {
  const outage = scope.getStore();
  if (outage) outage.databaseUnavailable = true;
}

/** Whether the current request met a database outage. */
export function metDatabaseOutage(): boolean {
  return scope.getStore()?.databaseUnavailable ?? false;
}

export function outageAs503() {
  return (_req: Request, res: Response, next: NextFunction) => {
    const outage: Outage = { databaseUnavailable: false };
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (outage.databaseUnavailable && (args[0] ?? res.statusCode) === 500) {
        args[0] = 503;
        res.statusCode = 503;
        if (typeof args[1] === "string") args[1] = "Service Unavailable";
        else res.statusMessage = "Service Unavailable";
        if (!res.hasHeader("retry-after")) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    withOutageMark(next, outage);
  };
}
