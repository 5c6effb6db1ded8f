import { and, sql, type SQL } from "drizzle-orm";
import { type Db, products } from "../../platform/index.server";

/**
 * How a /shop search term becomes SQL. Literal: every word of the term appears in the name,
 * category or description, case-insensitively, with `%`, `_` and `\` taken as themselves. Typo:
 * each word appears literally or, for a word of letters, is within a typo of a word of the
 * name (pg_trgm word similarity). Both are served by the trigram GIN indexes of the schema.
 */

/** pg_trgm word similarity needed for a typo match ('duvte' → 'duvet' scores 0.5). */
const TYPO_THRESHOLD = "0.5";
/** Short words have too few trigrams for similarity to mean anything; numbers and codes are never typos. */
const TYPO_WORD = /^\p{L}{4,40}$/u;
/** Each word must appear; a longer phrase is matched as one literal string. */
const MAX_SEARCH_WORDS = 8;
const SHORT_WORD = /^[\p{L}\p{N}]{1,2}$/u;

/** `\`, `%` and `_` are LIKE syntax; escaped, every character of a term matches literally. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The words that must all appear; a long paste is one literal phrase. */
export function searchWords(term: string): string[] {
  const words = [...new Set(term.split(/\s+/).filter(Boolean))];
  return words.length > MAX_SEARCH_WORDS ? [term] : words;
}

// Name, category and description, lower-cased and stored (products.search_text), so a search
// that looks through thousands of rows does not build the text again for each of them.
const haystack = products.searchText;

/**
 * One word, literally. A word of one or two letters or digits must start a word ("tv" finds
 * "TV stand", not "ATV"): trigrams cannot index a bare two-letter substring, and searching for
 * one would read the whole catalogue.
 */
function literalWord(word: string): SQL {
  const literal = escapeLike(word);
  if (!SHORT_WORD.test(word)) return sql`${haystack} like lower(${`%${literal}%`})`;
  return sql`(${haystack} like lower(${`${literal}%`}) or ${haystack} like lower(${`% ${literal}%`}))`;
}

/** pg_trgm word similarity against the name (products_name_trgm_idx); the threshold is set by enableTypos(). */
function typoWord(word: string): SQL {
  return sql`lower(${word}) <% lower(${products.name})`;
}

export function literalMatch(term: string): SQL {
  return and(...searchWords(term).map(literalWord))!;
}

/** Whether any word of the term may be a typo at all. */
export function allowsTypos(term: string): boolean {
  return searchWords(term).some((w) => TYPO_WORD.test(w));
}

/** Products matching with at least one typo (and not literally: those are listed first). */
export function typoOnlyMatch(term: string): SQL {
  const words = searchWords(term).map((w) => (TYPO_WORD.test(w) ? sql`(${literalWord(w)} or ${typoWord(w)})` : literalWord(w)));
  return and(...words, sql`not (${literalMatch(term)})`)!;
}

/**
 * Sets the similarity threshold for the rest of the current transaction. The planner prices
 * word similarity like a cheap operator and would rather scan the table in order until enough
 * rows match; through the trigram index it is several times faster, so sequential scans are off.
 */
export async function enableTypos(tx: Db) {
  await tx.execute(
    sql`select set_config('pg_trgm.word_similarity_threshold', ${TYPO_THRESHOLD}, true), set_config('enable_seqscan', 'off', true)`,
  );
}
