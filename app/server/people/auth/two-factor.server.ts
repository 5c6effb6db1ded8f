import { eq } from "drizzle-orm";
import { renderSVG } from "uqr";
import { type Db, type RefusalKind, user } from "../../platform/index.server";
import { getAuth } from "./auth.server";
import { callAuth } from "./auth-api.server";

const WRONG_PASSWORD = "That password is not correct.";

function message(r: { kind: RefusalKind; code: string; message: string }) {
  if (r.code === "INVALID_PASSWORD") return WRONG_PASSWORD;
  if (r.code === "INVALID_CODE" || r.code === "INVALID_TWO_FACTOR_AUTHENTICATION") return "That code is not valid. Try again.";
  if (r.kind === "rate_limited") return r.message;
  if (r.kind === "not_signed_in") return "Please sign in again.";
  return r.message || "Something went wrong. Please try again.";
}

/**
 * A refused step. `signedOut`: the password was guessed past the sign-in limits, so the session
 * was ended (auth-guards.server.ts); the page clears the cookie and sends the person to sign in.
 */
type Refused = { ok: false; message: string; signedOut: boolean };

function refused(r: { kind: RefusalKind; code: string; message: string }, passwordCheck: boolean): Refused {
  return { ok: false, message: message(r), signedOut: passwordCheck && r.kind === "rate_limited" };
}

export async function twoFactorEnabled(db: Db, userId: string) {
  const [row] = await db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, userId));
  return Boolean(row?.on);
}

/** Step 1: a new authenticator secret and backup codes; not on until a code from the app is confirmed. */
export async function startTwoFactor(request: Request, password: string) {
  const r = await callAuth<{ totpURI: string; backupCodes: string[] }>(() =>
    getAuth().api.enableTwoFactor({ body: { password }, headers: request.headers, asResponse: true }),
  );
  if (!r.ok) return refused(r, true);
  const secret = new URL(r.body.totpURI).searchParams.get("secret") ?? "";
  // Drawn here as plain SVG shapes, so the browser loads no QR library and nothing leaves the shop.
  const qrSvg = renderSVG(r.body.totpURI, { border: 2 });
  return { ok: true as const, totpURI: r.body.totpURI, secret, qrSvg, backupCodes: r.body.backupCodes, cookies: r.cookies };
}

/** Step 2: a code from the app turns it on. better-auth swaps the session, hence the cookies. */
export async function confirmTwoFactor(request: Request, code: string) {
  const clean = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(clean)) return { ok: false as const, message: "Enter the 6-digit code from your authenticator app.", signedOut: false };
  const r = await callAuth(() => getAuth().api.verifyTOTP({ body: { code: clean }, headers: request.headers, asResponse: true }));
  if (!r.ok) return refused(r, false);
  return { ok: true as const, cookies: r.cookies };
}

export async function disableTwoFactor(request: Request, password: string) {
  const r = await callAuth(() => getAuth().api.disableTwoFactor({ body: { password }, headers: request.headers, asResponse: true }));
  if (!r.ok) return refused(r, true);
  return { ok: true as const, cookies: r.cookies };
}

export async function regenerateBackupCodes(request: Request, password: string) {
  const r = await callAuth<{ backupCodes: string[] }>(() =>
    getAuth().api.generateBackupCodes({ body: { password }, headers: request.headers, asResponse: true }),
  );
  if (!r.ok) return refused(r, true);
  return { ok: true as const, backupCodes: r.body.backupCodes, cookies: r.cookies };
}
