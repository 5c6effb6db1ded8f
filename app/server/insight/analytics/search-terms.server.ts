/**
 * Storefront search terms (docs/rules/analytics.md, Visits). A search is counted where its page
 * view is (visits-middleware.server.ts), so searches answered from the page cache count too; the
 * /shop loader says how many products the search found in a response header, which the page
 * cache keeps with the page.
 */

/** Set by the /shop loader on a search's answer: how many products it found. */
export const SEARCH_RESULTS_HEADER = "X-Search-Results";

export const MAX_TERM_LENGTH = 100;

/**
 * A term as it is counted: lower-case, control characters dropped, runs of spaces collapsed, at
 * most MAX_TERM_LENGTH characters (whole characters, never half an emoji); empty gives null.
 */
export function normaliseSearchTerm(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const cleaned = raw.replace(/[\u0000-\u001f\u007f]/g, " ").toLowerCase().replace(/\s+/g, " ").trim();
  if (!cleaned) return null;
  const chars = Array.from(cleaned);
  return chars.length > MAX_TERM_LENGTH ? chars.slice(0, MAX_TERM_LENGTH).join("").trimEnd() : cleaned;
}

/** The search of a /shop address, or null: no term, or a later page of the same search. */
export function searchOf(search: string): string | null {
  const params = new URLSearchParams(search);
  const page = params.get("page");
  if (page && page !== "1") return null;
  return normaliseSearchTerm(params.get("search"));
}

/**
 * Whether the page came from a /shop page with the same term: a sort or category change on the
 * results, or a revalidation, which is the same search and not a new one.
 */
export function sameSearchAsReferer(term: string, referer: string | undefined, host: string | undefined): boolean {
  if (!referer || !host) return false;
  try {
    const from = new URL(referer);
    return from.host === host && from.pathname === "/shop" && normaliseSearchTerm(from.searchParams.get("search")) === term;
  } catch {
    return false;
  }
}

/** The header's value as "found nothing": only an answer that carries it is a search that ran. */
export function foundNothing(header: unknown): boolean | null {
  if (header === undefined || header === null) return null;
  const n = Number(header);
  return Number.isFinite(n) ? n === 0 : null;
}
