import { and, sql, type SQL } from "drizzle-orm";
import { customers } from "../../platform/index.server";
import { escapeLike, searchWords } from "../../catalog/index.server";

/**
 * How the customers list's search term becomes SQL, the way the shop's search does it
 * (app/server/catalog/products/storefront-search.server.ts): every word of the term appears in the
 * customer's name or email, case-insensitively and literally; or, for a word of four letters or
 * more, within a typo of a word there (pg_trgm word similarity, threshold set by enableTypos()).
 * Customers matching literally are listed before those found only through a typo. Both kinds
 * are served by customers_search_trgm_idx.
 */

/** Short words have too few trigrams for similarity to mean anything; numbers, codes and addresses are never typos. */
const TYPO_WORD = /^\p{L}{4,40}$/u;
const SHORT_WORD = /^[\p{L}\p{N}]{1,2}$/u;

// Must stay identical to the expression of customers_search_trgm_idx, or the index is not used.
const haystack = sql`lower(${customers.name} || ' ' || ${customers.email})`;

/** One word, literally; a word of one or two letters or digits must start a word (trigrams cannot index less). */
function literalWord(word: string): SQL {
  const literal = escapeLike(word);
  if (!SHORT_WORD.test(word)) return sql`${haystack} like lower(${`%${literal}%`})`;
  return sql`(${haystack} like lower(${`${literal}%`}) or ${haystack} like lower(${`% ${literal}%`}))`;
}

function typoWord(word: string): SQL {
  return sql`lower(${word}) <% ${haystack}`;
}

function literalMatch(words: string[]): SQL {
  return and(...words.map(literalWord))!;
}

/** Every word literally or, for a word that may be a typo, within a typo. */
function looseMatch(words: string[]): SQL {
  return and(...words.map((w) => (TYPO_WORD.test(w) ? sql`(${literalWord(w)} or ${typoWord(w)})` : literalWord(w))))!;
}

/** Customers the term finds, literally or through a typo. */
export function searchMatch(term: string): SQL {
  return looseMatch(searchWords(term));
}

/** Customers the term finds literally (listed before those found only through a typo). */
export function literalSearch(term: string): SQL {
  return literalMatch(searchWords(term));
}

/** Whether a word of the term may be a typo, so the search needs enableTypos()'s threshold. */
export function usesTypos(term: string): boolean {
  return searchWords(term).some((w) => TYPO_WORD.test(w));
}
