import { DomainError } from "../../platform/index.server";

export type CatalogRefusal = "bad_input" | "not_found" | "conflict" | "stale";

/**
 * An expected refusal from an admin catalogue rule: the route edge (app/routes/_edge/
 * admin-action.server.ts) answers it with its message shown to the admin (beside `field` when
 * there is one). Anything else is a bug: logged, answered with a generic failure.
 */
export class CatalogInputError extends DomainError<CatalogRefusal> {
  /** A machine-readable reason the page reacts to ("stale": reload the editor; "stale" by default for a stale refusal). */
  readonly code?: string;

  constructor(
    message: string,
    kind: CatalogRefusal = "bad_input",
    readonly field?: string,
    code?: string,
  ) {
    super(message, kind);
    this.name = "CatalogInputError";
    this.code = code ?? (kind === "stale" ? "stale" : undefined);
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
