/**
 * Browser-safe newsletter texts. The footer's box is on every page, so this stays free of zod:
 * the input schema the action parses with is in newsletter-input.ts.
 */

/** One answer for new and known addresses alike, so the box never reveals who is subscribed. */
export const SUBSCRIBED_MESSAGE = "Thanks for subscribing! You're on the list.";
