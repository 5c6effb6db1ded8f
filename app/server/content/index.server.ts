// Content's face: blog, newsletter, contact messages and search-engine data. Other areas and
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
export { absoluteUrl } from "./seo/seo.server";
export { TooManyAttempts } from "./too-many-attempts.server";
export { renderSitemap } from "./seo/sitemap.server";
export type { SitemapPart } from "./seo/sitemap.server";
