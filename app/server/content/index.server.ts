// Content's face: blog, newsletter, contact messages, the owner-edited pages (privacy, accessibility), search-engine data, the shop's mails as the
// owner words and watches them (Outbox, Site Settings → Emails) and the site settings. Other areas and
// routes import content only from here (docs/architecture.md).

export {
  PostInputError,
  createPost,
  deletePost,
  getPostForEdit,
  getPublishedPostBySlug,
  listAdminPosts,
  listPostsForFeed,
  listPublishedPosts,
  setPostPublished,
  updatePost,
} from "./blog/posts.server";
export type { AdminPostCard, PostCardData } from "./blog/posts.server";
export { sanitizePostHtml } from "./blog/sanitize.server";
export {
  INBOX_PAGE_SIZE,
  getContactMessage,
  listContactMessages,
  setMessageHandled,
  submitContactMessage,
} from "./contact/contact.server";
export type { InboxFilter } from "./contact/contact.server";
export {
  outboxMail,
  outboxPage,
  previewShopMail,
  resendFromOutbox,
  saveShopMailText,
  sendTestMail,
  shopMailTexts,
} from "./mails/shop-mails.server";
export {
  NEWSLETTER_PAGE_SIZE,
  confirmSubscription,
  confirmedSubscribers,
  describeLink,
  exportSubscriptionsCsv,
  listSubscriptions,
  subscribe,
  unsubscribe,
} from "./newsletter/newsletter.server";
export type { LinkStep } from "./newsletter/newsletter.server";
export { PageInputError, getShopPage, resetShopPage, saveShopPage } from "./pages/pages.server";
export type { ShopPage } from "./pages/pages.server";
export { absoluteUrl } from "./seo/seo.server";
export { loadSiteSettings, saveSiteSettingsForm } from "./settings/site-settings.server";
export { TooManyAttempts } from "./too-many-attempts.server";
export { renderSitemap } from "./seo/sitemap.server";
export type { SitemapPart } from "./seo/sitemap.server";

// content erases the rows it owns when a person's data is erased; the people area's erasure runs these
// steps in its one transaction (platform/privacy/steps.server.ts, docs/rules/personal-data.md).
import { registerPrivacySteps } from "../platform/index.server";
import { contentPrivacySteps } from "./privacy/privacy.server";
registerPrivacySteps("content", contentPrivacySteps);
