import type { z } from "zod";
import { getAuth } from "./auth.server";
import { callAuth } from "./auth-api.server";
import { broke, type ConfirmForm, fail, type SignInLinkForm, SOMETHING_WRONG, stripCookies } from "./flows.server";
import { passwordProblems } from "./password-policy.server";

export const ALREADY_CONFIRMED = "This email address is already confirmed. Sign in with your password.";
export const SIGN_IN_LINK_INVALID = "This sign-in link is invalid or has expired. Sign in again to get a new one.";

const sessionPair = (cookies: Headers) => cookies.getSetCookie().map((c) => c.split(";")[0]!).find((c) => /session_token=./.test(c));

/**
 * The POST behind a confirmation link. better-auth checks the token and confirms the address;
 * as it does, the sign-up's password and sessions are dropped (unproven-access.server.ts), and
 * the password typed here becomes the account's. An address already confirmed is left as it is:
 * the link is no password reset.
 */
export async function confirmEmail(request: Request, input: z.output<typeof ConfirmForm>) {
  const problems = passwordProblems(input.password);
  if (problems.length) return { ok: false as const, kind: "bad_input" as const, message: problems.join(" "), fieldErrors: { password: problems } };
  const auth = getAuth();
  const r = await callAuth(() => auth.api.verifyEmail({ query: { token: input.token }, headers: stripCookies(request.headers), asResponse: true }));
  if (!r.ok) {
    if (broke(r.kind)) return fail(r.kind, SOMETHING_WRONG, r.code);
    return fail("bad_input", "This confirmation link is not valid.", r.code === "TOKEN_EXPIRED" ? "TOKEN_EXPIRED" : "INVALID_TOKEN");
  }
  const pair = sessionPair(r.cookies);
  if (!pair) return fail("conflict", ALREADY_CONFIRMED, "ALREADY_CONFIRMED");
  const signedIn = await auth.api.getSession({ headers: new Headers({ cookie: pair }) });
  if (!signedIn) return fail("failed", SOMETHING_WRONG);
  const ctx = await auth.$context;
  await ctx.internalAdapter.updatePassword(signedIn.user.id, await ctx.password.hash(input.password));
  return { ok: true as const, cookies: r.cookies };
}

/** The POST behind a mailed sign-in link: one-time, and only from the page's button (never a GET). */
export async function signInWithLink(request: Request, input: z.output<typeof SignInLinkForm>) {
  const r = await callAuth<{ token?: string }>(() =>
    getAuth().api.magicLinkVerify({ query: { token: input.token }, headers: stripCookies(request.headers), asResponse: true }),
  );
  if (r.ok && r.body?.token) return { ok: true as const, cookies: r.cookies };
  if (!r.ok && broke(r.kind)) return fail(r.kind, SOMETHING_WRONG, r.code);
  return fail("bad_input", SIGN_IN_LINK_INVALID, "INVALID_TOKEN");
}
