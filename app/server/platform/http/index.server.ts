// The route kit: what every route edge needs from platform and nothing more (docs/architecture.md).
// Routes, root.tsx and the entry files import platform only from here; for the shop's business
// (its mails, its files, its jobs, its settings) they ask the domain areas' faces. No adapter (mail
// transport, payments, storage) is reachable from here.
//
// Areas do not import this file: they use platform's own face (../index.server.ts).

// The database handle, and what a route does when the database is down.
export { getDb } from "../db/client.server";
// The storefront's catalog and blog reads: on the read replica when there is one (docs/decisions/0041).
export { storefrontDb } from "../db/client.server";
export type { Db } from "../db/client.server";
export { RETRY_AFTER_SECONDS, UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.server";
export { markDatabaseUnavailable, metDatabaseOutage } from "./outage.server";

// Logging, the configuration a route reads, and the process's stop signal.
export { logger } from "../logger.server";
export { getEnv, getPublicEnv, publicUrl } from "../env.server";
export { shutdownSignal } from "../shutdown.server";

// Refusals: what domain code throws and app/routes/_edge/errors.server.ts turns into a status.
export { DomainError } from "../refusal.server";
export type { Refusal, RefusalKind } from "../refusal.server";

// Reading a request: bodies within their limits, the page number, the client's address.
export {
  BROWSER_DRAIN_BYTES,
  BodyTooLargeError,
  PUBLIC_FORM_MAX_BYTES,
  bodyChunks,
  discardBody,
  readBodyText,
  readFormWithLimit,
  readJsonBody,
  readJsonWithLimit,
  readPublicFormBody,
} from "./read-body.server";
export { pageParam } from "./page-param.server";
export { rememberedRead, rememberedReadEach } from "./remembered-reads.server";
export { checkRateLimits, clientIp, rateLimitRefusal } from "./rate-limit.server";
export type { RateLimitCheck } from "./rate-limit.server";

// The document's first paint (entry.server.tsx): the built stylesheet inlined.
export { builtStylesheet, rewriteForFirstPaint } from "./first-paint.server";
