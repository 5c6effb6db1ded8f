/**
 * Browser-safe newsletter texts. The footer's box is on every page, so this stays free of zod:
 * the input schema the action parses with is in newsletter-input.ts.
 */

/** One answer for new and known addresses alike, so the box never reveals who is subscribed. */
export const SUBSCRIBED_MESSAGE = "Thanks for subscribing! You're on the list.";

/**
 * Shown after that answer: the address is listed only once the link in the mail is followed
 * (double opt-in). Shown for known addresses too, so the box still reveals nothing.
 */
export const CONFIRM_HINT = "Check your inbox to confirm your subscription.";

/** The pages behind the links in the newsletter's mails (routes/store/newsletter-link.tsx). */
export const CONFIRMED_MESSAGE = "Your subscription is confirmed. Thanks for subscribing!";
export const UNSUBSCRIBED_MESSAGE = "You're unsubscribed. You won't get the newsletter any more.";
