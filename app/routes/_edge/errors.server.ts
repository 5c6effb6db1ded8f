import { data, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { DomainError, isDatabaseUnavailable, logger, type Refusal, type RefusalKind, UNAVAILABLE } from "~/server/platform/http/index.server";

/**
 * The one place that turns the domain's refusals into HTTP. Domain code (app/server) throws a
 * DomainError or returns a Refusal, both with a kind and a message and never a status; the
 * routes answer with what this module makes of them. Not a route: app/routes.ts lists routes by
 * hand and does not name this folder.
 */

const STATUS: Record<RefusalKind, number> = {
  bad_input: 400,
  not_signed_in: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  stale: 409,
  too_large: 413,
  unsupported_type: 415,
  rejected: 422,
  rate_limited: 429,
  failed: 500,
  unavailable: 503,
};

/** The HTTP status for a kind of refusal. */
export function statusOf(kind: RefusalKind): number {
  return STATUS[kind];
}

type RefusalLike = Pick<Refusal, "kind"> & { retryAfterSeconds?: number };

/** Status and headers for a refusal: a rate limit or an outage also says when to retry. */
export function responseInit(refusal: RefusalLike, headers?: HeadersInit): ResponseInit {
  const h = new Headers(headers);
  if (refusal.retryAfterSeconds !== undefined) h.set("Retry-After", String(refusal.retryAfterSeconds));
  return { status: statusOf(refusal.kind), headers: h };
}

/**
 * The answer to a refused request: `{ error: message }` by default, or the body the route shows
 * (a toast, field errors…), with the kind's status. Returned from an action, or thrown from a
 * loader or guard for the error boundary.
 */
export function respond(refusal: Refusal): DataWithResponseInit<{ error: string }>;
export function respond<B>(refusal: RefusalLike, body: B, headers?: HeadersInit): DataWithResponseInit<B>;
export function respond(refusal: Refusal | RefusalLike, body?: unknown, headers?: HeadersInit): DataWithResponseInit<unknown> {
  return data(body === undefined ? { error: (refusal as Refusal).message } : body, responseInit(refusal, headers));
}

/** Throws the refusal as a response with its message as the body (what error boundaries show). */
export function refuse(refusal: Refusal): never {
  throw data(refusal.message, responseInit(refusal));
}

/** The same refusal as a plain JSON Response, for resource routes (API clients, fetch()). */
export function jsonResponse(refusal: RefusalLike, body: unknown, headers?: HeadersInit): Response {
  return Response.json(body, responseInit(refusal, headers));
}

/** A domain error as its response (`{ error: message }`, the kind's status, Retry-After when it says); anything else: null, to rethrow. */
export function toResponse(err: unknown) {
  return err instanceof DomainError ? respond({ kind: err.kind, message: err.message, retryAfterSeconds: err.retryAfterSeconds }) : null;
}

/** A database outage as the 503 the error boundary shows ("briefly unavailable", retry in 5 s); anything else is rethrown as it was. */
export function rethrowIfDatabaseUnavailable(err: unknown): never {
  if (isDatabaseUnavailable(err)) {
    logger.warn({ err: (err as Error).message }, "database unavailable");
    refuse(UNAVAILABLE);
  }
  throw err;
}
