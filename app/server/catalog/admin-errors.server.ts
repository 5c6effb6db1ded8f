/**
 * An expected refusal from an admin catalogue rule: the route turns it into a 4xx response whose
 * message is shown to the admin (beside `field` when there is one). Anything else is a bug: logged,
 * answered with a generic failure.
 */
export class CatalogInputError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
    readonly field?: string,
    /** A machine-readable reason the page reacts to (for example "stale": reload the editor). */
    readonly code?: string,
  ) {
    super(message);
    this.name = "CatalogInputError";
  }
}

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = "23505";
export const CHECK_VIOLATION = "23514";
