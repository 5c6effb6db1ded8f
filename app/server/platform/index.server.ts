// The platform's face: the machinery every area uses and no shop rule lives in (database,
// HTTP edges, jobs, mail outbox, storage, settings store, logging). Platform imports no area.
// Routes do not import this face: they use the route kit, ./http/index.server.ts.

export { closeDatabase, getDb, openDatabase, statementName } from "./db/client.server";
export { builtOnce } from "./db/statements.server";
export type { Database, Db } from "./db/client.server";
export { runMigrations } from "./db/migrate.server";
export {
  ORDER_STATUSES,
  PAYMENT_TASK_KINDS,
  account,
  blogPosts,
  cartLines,
  categories,
  contactMessages,
  customers,
  discountCodes,
  discountUses,
  jobs,
  mailOptOuts,
  newsletterSubscriptions,
  orderEvents,
  orderItems,
  orders,
  paymentTasks,
  orderMoneyMovements,
  orderStockMoves,
  orderReturns,
  privacyAuditLog,
  productCounts,
  productVariations,
  products,
  profiles,
  reviews,
  savedAddresses,
  searchTermsDaily,
  session,
  shippingRates,
  shippingZones,
  shopMeta,
  shopPages,
  siteSettings,
  storefrontChanges,
  taxRates,
  taxSettings,
  testPaymentSessions,
  testPaymentRefunds,
  twoFactor,
  user,
  variationTypes,
  variationValues,
  verification,
} from "./db/schema/index";
export type { ReturnedLine, WeightBand } from "./db/schema/index";
export { PRIVACY_ACTOR_KINDS, PRIVACY_AUDIT_KINDS, RETURN_REASONS, RETURN_STATES } from "./db/schema/index";
export { eraseOutboxMailsAbout } from "./privacy/outbox.server";
export { ERASED_EMAIL, ERASED_NAME, ERASED_TEXT, privacySteps, registerPrivacySteps } from "./privacy/steps.server";
export type { ErasureCounts, PrivacySteps } from "./privacy/steps.server";
export { getEnv, publicUrl } from "./env.server";
export { loadSharp } from "./images/sharp.server";
export type { Env } from "./env.server";
export { changeLogJobs } from "./http/page-cache.server";
export { cdnPurgerFromEnv } from "./cdn/adapters.server";
export { cdnJobs, startCdnPurgeWatch, startPurgeCursor } from "./cdn/purge.server";
export { pageParam } from "./http/page-param.server";
export {
  checkRateLimits,
  clearRateLimits,
  hit,
  hitPerSource,
  limitedSource,
  overLimit,
  rateLimitRefusal,
  tooManyAttemptsMessage,
} from "./http/rate-limit.server";
export type { RateLimitResult } from "./http/rate-limit.server";
export { BodyTooLargeError, readBodyText, readFormWithLimit, readJsonBody } from "./http/read-body.server";
export { SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./http/session-policy";
export { RENDERED_FOR } from "./http/session-viewer.server";
export type { ViewerRole } from "./http/session-viewer.server";
export {
  createJob,
  deleteJob,
  getJob,
  heartbeat,
  latestJob,
  reapStaleJobs,
  toJobView,
  transitionJob,
  unfinishedJob,
  updateJob,
} from "./jobs/jobs.server";
export type { JobRow } from "./jobs/jobs.server";
export { FailedJobError, countFailedJobs, listFailedJobRows, tryFailedJobAgain } from "./jobs/failed-jobs.server";
export { enqueue, startJobRunner } from "./jobs/queue.server";
export type { JobTasks } from "./jobs/queue.server";
export { getRootLogger, logger } from "./logger.server";
export { composeMail, mailContext } from "./mail/compose.server";
export type { MailDraft } from "./mail/compose.server";
export { getMailTemplates, saveMailTemplate } from "./mail/mail-settings.server";
export {
  queueMail,
  resendMail,
  reviseUntriedMail,
  sendMail,
} from "./mail/mail.server";
export type { QueuedMail } from "./mail/mail.server";
export {
  countFailedMails,
  getOutboxMessage,
  isOutboxFilter,
  listOutbox,
} from "./mail/outbox.server";
export { renderSampleMail, sampleLines } from "./mail/samples.server";
export { loadTemplates, warmUpMailTemplates } from "./mail/templates/load.server";
export type { MailLineItem } from "./mail/templates/order-parts.server";
export type { OrderForMail, RefundOutcome } from "./mail/templates/order.server";
export type { RefundForMail } from "./mail/templates/refund.server";
export { mailJobs, queueJobsForWaitingMails } from "./mail/mail.server";
export { DomainError } from "./refusal.server";
export type { Refusal, RefusalKind } from "./refusal.server";
export { getAuthSecret, purposeKey } from "./secrets.server";
export { changeSetting, getSiteSettings, saveSetting, saveSiteSettings } from "./settings/settings.server";
export { logProductPageChange } from "./http/storefront-changes.server";
export type { Storage } from "./storage/backend.server";
export { statStorage } from "./storage/probe.server";
export { DiskStorage, MEDIA_PREFIX, getStorage } from "./storage/storage.server";
