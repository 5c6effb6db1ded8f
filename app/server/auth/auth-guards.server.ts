import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Db } from "../db/client.server";
import { hit, tooManyAttemptsMessage } from "../rate-limit.server";
import { passwordProblems } from "./password-policy.server";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Limit = { scope: "ip" | "email"; limit: number; windowMs: number };

/**
 * Per-IP limits stop one machine trying many accounts; per-email limits stop many machines
 * trying one account. Keyed the same whether the request came through our forms or straight
 * to /api/auth, so neither path is a way around them.
 */
export const AUTH_LIMITS: Record<string, { name: string; limits: Limit[] }> = {
  "/sign-in/email": {
    name: "sign-in",
    limits: [
      { scope: "ip", limit: 20, windowMs: 15 * MINUTE },
      { scope: "email", limit: 8, windowMs: 15 * MINUTE },
    ],
  },
  "/sign-up/email": {
    name: "sign-up",
    limits: [
      { scope: "ip", limit: 10, windowMs: HOUR },
      { scope: "email", limit: 5, windowMs: HOUR },
    ],
  },
  "/request-password-reset": {
    name: "reset",
    limits: [
      { scope: "ip", limit: 10, windowMs: HOUR },
      { scope: "email", limit: 5, windowMs: HOUR },
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

/** better-auth `hooks.before`: rate limits, password rules and name sizes on every auth path. */
export function authGuards(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const rule = AUTH_LIMITS[ctx.path];
    if (rule) {
      const ip = ctx.headers?.get("x-shop-client-ip") ?? "unknown";
      const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
      for (const l of rule.limits) {
        if (l.scope === "email" && !email) continue;
        const who = l.scope === "ip" ? ip : email;
        const r = await hit(db, `${rule.name}:${l.scope}:${who}`, l.limit, l.windowMs);
        if (!r.ok) {
          throw new APIError("TOO_MANY_REQUESTS", { message: tooManyAttemptsMessage(r.retryAfterSeconds), code: "TOO_MANY_ATTEMPTS" });
        }
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
