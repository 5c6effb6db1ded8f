import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { clearRateLimits, type Db, hit, hitPerSource, limitedSource, overLimit, type RateLimitResult, tooManyAttemptsMessage } from "../../platform/index.server";
import { passwordProblems } from "./password-policy.server";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Limit = { scope: "ip" | "email" | "email-ip"; limit: number; windowMs: number };

/**
 * Guesses at an account's password: a sign-in, and the password the account page asks for
 * before changing two-factor settings. All of them count here, under the account's email.
 *
 * - `ip`: one address trying many accounts.
 * - `emailAndIp`: one address trying one account. This is the limit a guesser meets, and it
 *   does not stop the owner signing in from anywhere else.
 * - `addresses`: how many different addresses tried one account (a guesser rotating addresses).
 * - `email`: every guess at one account, from however few addresses: much higher, so a guesser
 *   at one address never reaches it.
 *
 * The owner locked out by the last two can always reset the password (its limits are its own),
 * and a new password clears these counts (clearPasswordLimits).
 */
export const PASSWORD_LIMITS = {
  ip: { limit: 20, windowMs: 15 * MINUTE },
  emailAndIp: { limit: 8, windowMs: 15 * MINUTE },
  addresses: { limit: 8, windowMs: 15 * MINUTE },
  email: { limit: 40, windowMs: 15 * MINUTE },
} as const;

const passwordKeys = (email: string) => ({
  addresses: `sign-in:addresses:${email}`,
  email: `sign-in:email:${email}`,
  emailAndIpPrefix: `sign-in:email-ip:${email}|`,
});

/**
 * A refused guess. `accountWide`: the account's own limits refused it (many addresses, many
 * guesses), not this address's: the owner typing the right password may still get in by a
 * second proof (throttledSignIn).
 */
export type PasswordAttempt = RateLimitResult & { accountWide?: boolean };

/** Counts one guess at the account's password from this address; the first limit it passes refuses. */
export async function checkPasswordAttempt(db: Db, email: string, ip: string): Promise<PasswordAttempt> {
  const byIp = await hit(db, `sign-in:ip:${ip}`, PASSWORD_LIMITS.ip.limit, PASSWORD_LIMITS.ip.windowMs);
  if (!byIp.ok || !email) return byIp;
  const keys = passwordKeys(email);
  const perSource = { key: `${keys.emailAndIpPrefix}${ip}`, ...PASSWORD_LIMITS.emailAndIp };
  const bySource = await hitPerSource(db, perSource, { key: keys.addresses, ...PASSWORD_LIMITS.addresses });
  if (!bySource.ok) {
    const ownAddress = await overLimit(db, perSource.key, perSource.limit);
    return { ...bySource, accountWide: ownAddress.ok };
  }
  const byEmail = await hit(db, keys.email, PASSWORD_LIMITS.email.limit, PASSWORD_LIMITS.email.windowMs);
  return byEmail.ok ? byEmail : { ...byEmail, accountWide: true };
}

/** What every sign-in to an account held back by its own limits reads, right password or wrong. */
export const HELD_BACK = "Too many sign-in attempts on this account. If the password you entered is right, we have emailed you a link to sign in.";

/** Sign-in links mailed per account: enough for the owner, too few to flood the mailbox. */
const SIGN_IN_LINK_LIMIT = { limit: 3, windowMs: 15 * MINUTE };

export type GuardHelpers = { sendSignInLink: (email: string) => Promise<void>; afterResponse: (task: Promise<unknown>) => void };

/**
 * A sign-in to an account that others' guesses hold back. The password is checked here: a wrong
 * one stays refused; the right one does not sign in on its own, but mails a one-time sign-in
 * link, or, for an account with two-factor, goes on to better-auth, which then asks for the code.
 * Wrong and right answer alike (only the mailbox learns which it was), so the refusal is no
 * oracle for someone still guessing. Returns when the sign-in may go on.
 */
async function throttledSignIn(db: Db, ctx: GuardContext, email: string, password: unknown, helpers: GuardHelpers) {
  const refusal = new APIError("TOO_MANY_REQUESTS", { message: HELD_BACK, code: "ACCOUNT_HELD_BACK" });
  const found = await ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  const hash = found?.accounts.find((a) => a.providerId === "credential")?.password;
  const typed = typeof password === "string" ? password : "";
  // Hash anyway when there is nothing to compare with, so an unknown email takes as long.
  const right = hash ? await ctx.context.password.verify({ hash, password: typed }) : (await ctx.context.password.hash(typed), false);
  if (!right || !found?.user.emailVerified) throw refusal;
  if ((found.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled) return;
  // After the answer, so the right password takes no longer to answer than a wrong one. Past the
  // limit the links already mailed still work; the answer stays the same.
  helpers.afterResponse(
    (async () => {
      const mails = await hit(db, `sign-in-link:email:${email}`, SIGN_IN_LINK_LIMIT.limit, SIGN_IN_LINK_LIMIT.windowMs);
      if (mails.ok) await helpers.sendSignInLink(email);
    })(),
  );
  throw refusal;
}

/** After a password reset: the account's owner starts afresh, wherever the guesses came from. */
export async function clearPasswordLimits(db: Db, email: string) {
  const keys = passwordKeys(email.trim().toLowerCase());
  await clearRateLimits(db, [keys.addresses, keys.email], [keys.emailAndIpPrefix]);
}

/** The account page's two-factor settings and 'Delete my account', each behind the account's password. */
const PASSWORD_CHECKS = new Set(["/two-factor/enable", "/two-factor/disable", "/two-factor/generate-backup-codes", "/verify-password"]);

/** What a refused guess answers: 429, 'Too many attempts, try again in N minutes'. */
const tooMany = (r: { retryAfterSeconds: number }) =>
  new APIError("TOO_MANY_REQUESTS", { message: tooManyAttemptsMessage(r.retryAfterSeconds), code: "TOO_MANY_ATTEMPTS" });

/**
 * Other auth paths: per-IP limits stop one machine trying many accounts; per-email limits stop
 * many machines trying one account. Keyed the same whether the request came through our forms
 * or straight to /api/auth, so neither path is a way around them.
 */
export const AUTH_LIMITS: Record<string, { name: string; limits: Limit[] }> = {
  "/sign-up/email": {
    name: "sign-up",
    limits: [
      { scope: "ip", limit: 10, windowMs: HOUR },
      { scope: "email", limit: 5, windowMs: HOUR },
    ],
  },
  // Per address that asks, never per account: others asking for an account's reset must not
  // keep its owner from getting the mail.
  "/request-password-reset": {
    name: "reset",
    limits: [
      { scope: "ip", limit: 10, windowMs: HOUR },
      { scope: "email-ip", limit: 5, windowMs: HOUR },
    ],
  },
  "/reset-password": { name: "reset-submit", limits: [{ scope: "ip", limit: 20, windowMs: HOUR }] },
  "/send-verification-email": {
    name: "confirm-mail",
    limits: [
      { scope: "ip", limit: 10, windowMs: HOUR },
      { scope: "email", limit: 5, windowMs: HOUR },
    ],
  },
  "/two-factor/verify-totp": { name: "two-factor", limits: [{ scope: "ip", limit: 10, windowMs: 15 * MINUTE }] },
  "/two-factor/verify-backup-code": { name: "two-factor", limits: [{ scope: "ip", limit: 10, windowMs: 15 * MINUTE }] },
};

export const NAME_MAX = 100;

function tooLong(value: unknown, max: number) {
  return typeof value === "string" && value.length > max;
}

type GuardContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** better-auth `hooks.before`: rate limits, password rules and name sizes on every auth path. */
export function authGuards(db: Db, helpers: GuardHelpers) {
  return createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const ip = limitedSource(ctx.headers?.get("x-shop-client-ip") ?? "unknown");
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    if (ctx.path === "/sign-in/email") {
      const r = await checkPasswordAttempt(db, email, ip);
      if (!r.ok && !r.accountWide) throw tooMany(r);
      if (!r.ok) await throttledSignIn(db, ctx, email, body.password, helpers);
    }
    if (PASSWORD_CHECKS.has(ctx.path)) {
      // A signed-in session guessing its own account's password: past the limits it is ended
      // (the account page then clears the cookie and sends the person to sign in).
      const current = await getSessionFromCtx(ctx);
      if (current?.session) {
        const r = await checkPasswordAttempt(db, current.user.email.toLowerCase(), ip);
        if (!r.ok) {
          await ctx.context.internalAdapter.deleteSession(current.session.token);
          throw tooMany(r);
        }
      }
    }
    const rule = AUTH_LIMITS[ctx.path];
    if (rule) {
      for (const l of rule.limits) {
        if (l.scope !== "ip" && !email) continue;
        const who = l.scope === "ip" ? ip : l.scope === "email" ? email : `${email}|${ip}`;
        const r = await hit(db, `${rule.name}:${l.scope}:${who}`, l.limit, l.windowMs);
        if (!r.ok) throw tooMany(r);
      }
    }
    if (ctx.path === "/sign-up/email") {
      if (tooLong(body.name, 2 * NAME_MAX + 1) || tooLong(body.firstName, NAME_MAX) || tooLong(body.lastName, NAME_MAX)) {
        throw new APIError("BAD_REQUEST", { message: `Names must be at most ${NAME_MAX} characters.`, code: "NAME_TOO_LONG" });
      }
    }
    const newPassword =
      ctx.path === "/sign-up/email" ? body.password : ctx.path === "/reset-password" || ctx.path === "/change-password" ? body.newPassword : undefined;
    if (typeof newPassword === "string") {
      const problems = passwordProblems(newPassword, typeof body.email === "string" ? body.email : undefined);
      if (problems.length) throw new APIError("BAD_REQUEST", { message: problems.join(" "), code: "WEAK_PASSWORD" });
    }
  });
}
