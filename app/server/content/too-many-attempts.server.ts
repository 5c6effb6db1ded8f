import { DomainError, rateLimitRefusal } from "../platform/index.server";

/**
 * Too many contact messages or newsletter sign-ups from one client address: the message says
 * when to try again, and `retryAfterSeconds` goes out as Retry-After (docs/decisions/0029).
 */
export class TooManyAttempts extends DomainError<"rate_limited"> {
  constructor(retryAfterSeconds: number) {
    super(rateLimitRefusal(retryAfterSeconds).message, "rate_limited", { retryAfterSeconds });
  }
}
