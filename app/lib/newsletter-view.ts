/**
 * What the footer's newsletter box gets back from /resources/newsletter (or reads from
 * ?newsletter= after a submission without JavaScript). A plain type, safe to import anywhere.
 */
export type NewsletterResult = { ok: true; message: string } | { ok: false; error: string };
