/**
 * Contact form rules, shared by the page and its action. 20,000 characters: a 10 KB message fits easily.
 * The schema is in contact-input.ts, so the page's browser code stays free of zod.
 */
export const MESSAGE_MAX_CHARS = 20_000;
