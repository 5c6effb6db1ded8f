import { z } from "zod";
import { publicUrl, type RefusalKind } from "../../platform/index.server";
import { getAuth } from "./auth.server";
import { callAuth } from "./auth-api.server";
import { NAME_MAX } from "./auth-guards.server";
import { passwordProblems } from "./password-policy.server";

/** Where confirmation links land: it confirms, signs in and welcomes (routes/account/email-confirmed). */
export const CONFIRMED_PATH = "/auth/confirmed";
export const RESET_PATH = "/auth/reset-password";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const UNCONFIRMED = "Please confirm your email address first: open the link we sent you, or send it again.";
export const SOMETHING_WRONG = "Something went wrong. Please try again.";

export type FieldErrors = Partial<Record<string, string[]>>;
/** A refused step: its kind (the route edge picks the status), the message to show, the fields to mark. */
export type FlowError = { ok: false; kind: RefusalKind; message: string; fieldErrors?: FieldErrors; code?: string };

const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((e) => e.toLowerCase());
const password = z.string({ error: "Password is required" }).min(1, "Password is required").max(1024, "Password is too long");
const optionalName = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v ?? "").normalize("NFC").trim())
    .pipe(z.string().max(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`));

export const SignInForm = z.object({ email, password });
export const SignUpForm = z.object({ email, password, firstName: optionalName("First name"), lastName: optionalName("Last name") });
export const EmailForm = z.object({ email });
/** The confirmation page: the mailed token, and the password the one who confirms chooses. */
export const ConfirmForm = z
  .object({ token: z.string().min(1, "This confirmation link is not valid."), password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "The passwords do not match", path: ["confirmPassword"] });
export const SignInLinkForm = z.object({ token: z.string().min(1, "This sign-in link is invalid or has expired.").max(200) });
export const ResetForm = z
  .object({ token: z.string().min(1, "This reset link is invalid or has expired."), password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "The passwords do not match", path: ["confirmPassword"] });

function invalid(error: z.ZodError): FlowError {
  const flat = z.flattenError(error);
  const fieldErrors = flat.fieldErrors as FieldErrors;
  const first = flat.formErrors[0] ?? Object.values(fieldErrors).flat()[0] ?? "Please check the form";
  return { ok: false, kind: "bad_input", message: first, fieldErrors };
}

export function parseForm<S extends z.ZodType>(schema: S, form: FormData): { ok: true; data: z.output<S> } | FlowError {
  const r = schema.safeParse(Object.fromEntries(form));
  return r.success ? { ok: true, data: r.data } : invalid(r.error);
}

export const fail = (kind: RefusalKind, message: string, code?: string): FlowError => ({ ok: false, kind, message, code });

/** better-auth broke (or the database is down): its own message would mean nothing to the person. */
export const broke = (kind: RefusalKind) => kind === "failed" || kind === "unavailable";

export async function signIn(request: Request, input: z.output<typeof SignInForm>) {
  const r = await callAuth<{ twoFactorRedirect?: boolean }>(() =>
    getAuth().api.signInEmail({ body: { email: input.email, password: input.password, callbackURL: CONFIRMED_PATH }, headers: request.headers, asResponse: true }),
  );
  if (r.ok) return { ok: true as const, twoFactor: Boolean(r.body?.twoFactorRedirect), cookies: r.cookies };
  if (r.code === "EMAIL_NOT_VERIFIED") return { ...fail("forbidden", UNCONFIRMED, "EMAIL_NOT_VERIFIED"), email: input.email };
  if (r.kind === "rate_limited" || r.kind === "bad_input") return fail(r.kind, r.kind === "bad_input" && r.code === "INVALID_EMAIL" ? "Enter a valid email address" : r.message, r.code);
  // Unknown email and wrong password end here alike (better-auth hashes either way: same time).
  if (r.kind === "not_signed_in") return fail("not_signed_in", INVALID_CREDENTIALS, r.code);
  return fail(r.kind, SOMETHING_WRONG, r.code);
}

export async function signUp(request: Request, input: z.output<typeof SignUpForm>) {
  const problems = passwordProblems(input.password, input.email);
  if (problems.length) return { ok: false as const, kind: "bad_input" as const, message: problems.join(" "), fieldErrors: { password: problems } };
  // First and last name ride along for the profile (auth.server's user-created hook reads them).
  const body = {
    email: input.email,
    password: input.password,
    name: `${input.firstName} ${input.lastName}`.trim(),
    firstName: input.firstName,
    lastName: input.lastName,
    callbackURL: CONFIRMED_PATH,
  };
  const r = await callAuth(() => getAuth().api.signUpEmail({ body, headers: request.headers, asResponse: true }));
  // An address that already has an account gets the same answer (its owner gets a mail instead).
  if (r.ok) return { ok: true as const };
  return fail(r.kind, broke(r.kind) ? SOMETHING_WRONG : r.message, r.code);
}

/** Always "sent" for any well-formed address: whether it has an account is not revealed. */
export async function resendConfirmation(request: Request, address: string) {
  const r = await callAuth(() =>
    getAuth().api.sendVerificationEmail({ body: { email: address, callbackURL: CONFIRMED_PATH }, headers: stripCookies(request.headers), asResponse: true }),
  );
  if (r.ok) return { ok: true as const };
  return fail(r.kind, r.kind === "rate_limited" ? r.message : SOMETHING_WRONG, r.code);
}

export async function requestPasswordReset(request: Request, address: string) {
  const r = await callAuth(() =>
    getAuth().api.requestPasswordReset({ body: { email: address, redirectTo: RESET_PATH }, headers: request.headers, asResponse: true }),
  );
  if (r.ok) return { ok: true as const };
  return fail(r.kind, r.kind === "rate_limited" ? r.message : SOMETHING_WRONG, r.code);
}

export async function resetPassword(request: Request, input: z.output<typeof ResetForm>) {
  const problems = passwordProblems(input.password);
  if (problems.length) return { ok: false as const, kind: "bad_input" as const, message: problems.join(" "), fieldErrors: { password: problems } };
  const r = await callAuth(() =>
    getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.password }, headers: request.headers, asResponse: true }),
  );
  if (r.ok) return { ok: true as const };
  if (r.code === "INVALID_TOKEN" || r.code === "USER_NOT_FOUND") return fail("bad_input", "This reset link is invalid or has expired. Ask for a new one.", "INVALID_TOKEN");
  return fail(r.kind, broke(r.kind) ? SOMETHING_WRONG : r.message, r.code);
}

/** Ends the session; a cookie better-auth would not accept (tampered, expired) is cleared anyway. */
export async function signOut(request: Request) {
  const r = await callAuth(() => getAuth().api.signOut({ headers: request.headers, asResponse: true }));
  if (r.cookies.getSetCookie().length === 0) {
    // On https better-auth names its cookie with the __Secure- prefix, which must be cleared as such.
    const secure = publicUrl().startsWith("https://");
    r.cookies.append(
      "set-cookie",
      `${secure ? "__Secure-" : ""}better-auth.session_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
    );
  }
  return r.cookies;
}

/** The second step of a sign-in with two-factor on: an authenticator code or a backup code. */
export async function verifySignInCode(request: Request, code: string, kind: "totp" | "backup") {
  const clean = kind === "totp" ? code.replace(/\s+/g, "") : code.trim();
  if (!clean) return fail("bad_input", "Enter the code");
  const r = await callAuth(() =>
    kind === "totp"
      ? getAuth().api.verifyTOTP({ body: { code: clean }, headers: request.headers, asResponse: true })
      : getAuth().api.verifyBackupCode({ body: { code: clean }, headers: request.headers, asResponse: true }),
  );
  if (r.ok) return { ok: true as const, cookies: r.cookies };
  if (r.code === "INVALID_CODE" || r.code === "INVALID_BACKUP_CODE") return fail("bad_input", "That code is not valid. Try again.", r.code);
  if (r.kind === "rate_limited") return fail("rate_limited", r.message, r.code);
  if (r.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" || r.code === "INVALID_TWO_FACTOR_COOKIE" || r.kind === "not_signed_in") {
    return fail("not_signed_in", "Your sign-in has expired. Please sign in again.", "EXPIRED");
  }
  return fail("bad_input", "That code is not valid. Try again.", r.code);
}

/** The resend endpoint treats a signed-in caller differently; the form is about the typed address. */
export function stripCookies(headers: Headers) {
  const h = new Headers(headers);
  h.delete("cookie");
  return h;
}
