/**
 * Why the shop refuses (or cannot do) what was asked, in the domain's words. Nothing under
 * app/server knows HTTP: the route edge (app/routes/_edge/errors.server.ts) chooses the status
 * for each kind, and nothing here creates or throws a Response.
 */
export type RefusalKind =
  /** The input cannot be used as sent (a missing field, a malformed form or file). */
  | "bad_input"
  /** Not signed in: the credentials were not accepted, or the sign-in (step) has expired. */
  | "not_signed_in"
  /** Signed in, but not allowed to do this. */
  | "forbidden"
  | "not_found"
  /** Clashes with what exists or is under way: a taken name, a job already running. */
  | "conflict"
  /** Someone else changed it since it was read. */
  | "stale"
  | "too_large"
  /** A file of a kind that is not accepted. */
  | "unsupported_type"
  /** Well-formed, but refused by a rule (what better-auth calls unprocessable). */
  | "rejected"
  /** Too many attempts: `retryAfterSeconds` says when to try again. */
  | "rate_limited"
  /** Broke on our side; the message is the generic one. */
  | "failed"
  /** A dependency (the database) is briefly down: `retryAfterSeconds` says when to try again. */
  | "unavailable";

/** A refusal as a value, for functions that return typed results instead of throwing. */
export type Refusal = { kind: RefusalKind; message: string; retryAfterSeconds?: number };

/**
 * The base of the domain's expected failures: a message written for the person and a kind,
 * never an HTTP status. Thrown by domain functions; the route edge maps it to a response
 * (docs/decisions/0029).
 */
export class DomainError<K extends RefusalKind = RefusalKind> extends Error {
  /** For `rate_limited` (and `unavailable`): when to try again; the edge sends it as Retry-After. */
  readonly retryAfterSeconds?: number;

  constructor(
    message: string,
    readonly kind: K,
    options?: ErrorOptions & { retryAfterSeconds?: number },
  ) {
    super(message, options);
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
