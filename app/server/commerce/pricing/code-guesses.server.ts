import { type Db, hitPerSource, overLimit, tooManyAttemptsMessage } from "../../platform/index.server";
import { findCode } from "./discount-codes.server";

/**
 * How many different unknown codes one client address may try in a window
 * (docs/rules/cart-and-checkout.md, "Discount codes cannot be guessed"): far more than a shopper
 * types, far too few to find a private code by trying. Retyping the same code counts once.
 */
export const CODE_GUESS_LIMIT = { distinctCodes: 30, windowMs: 60 * 60_000 };

/** A code retyped this often in the window is still one guess; more is a script, and it is refused too. */
const SAME_CODE_LIMIT = 500;

export type CodeLookup = { ok: true } | { ok: false; message: string; retryAfterSeconds: number };

/**
 * Before a typed code is looked up for a client: an unknown code counts as one guess of that
 * client (once per different code); once the client has guessed too many, no code is looked up
 * for it, known or not, until the window ends, so the answers tell nothing more.
 */
export async function limitCodeLookup(db: Db, typed: string, client: { ip: string }): Promise<CodeLookup> {
  const code = typed.trim().toLowerCase();
  if (!code) return { ok: true };
  const guesses = `discount-guess:ip:${client.ip}`;
  const known = await findCode(db, code);
  const verdict = known
    ? await overLimit(db, guesses, CODE_GUESS_LIMIT.distinctCodes)
    : await hitPerSource(
        db,
        { key: `${guesses}:code:${code.slice(0, 100)}`, limit: SAME_CODE_LIMIT, windowMs: CODE_GUESS_LIMIT.windowMs },
        { key: guesses, limit: CODE_GUESS_LIMIT.distinctCodes, windowMs: CODE_GUESS_LIMIT.windowMs },
      );
  return verdict.ok ? { ok: true } : { ok: false, message: tooManyAttemptsMessage(verdict.retryAfterSeconds), retryAfterSeconds: verdict.retryAfterSeconds };
}
