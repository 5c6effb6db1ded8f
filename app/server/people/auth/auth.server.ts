import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createEmailVerificationToken } from "better-auth/api";
import { magicLink, twoFactor } from "better-auth/plugins";
import { account, type Database, getAuthSecret, getDb, getEnv, logger, publicUrl, session, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S, twoFactor as twoFactorTable, user, verification } from "../../platform/index.server";
import { ensureProfile } from "../accounts/profile.server";
import { authGuards, clearPasswordLimits, NAME_MAX } from "./auth-guards.server";
import { CONFIRM_PATH, SIGN_IN_LINK_PATH, SIGN_IN_LINK_TTL_S, withToken } from "./links.server";
import { dropUnprovenAccess } from "./unproven-access.server";
import {
  sendAlreadyRegisteredMail,
  sendConfirmationMail,
  sendPasswordChangedMail,
  sendPasswordResetMail,
  sendSignInLinkMail,
} from "./auth-mails.server";

/**
 * Mails better-auth sends (confirmation, reset) run after the response, so a request for an
 * address with an account takes as long as one without (no enumeration by timing). Tests await
 * them with `authMailsSettled()`.
 */
const background = new Set<Promise<unknown>>();
function runInBackground(task: Promise<unknown>) {
  const p = task.catch((err: unknown) => logger.error({ err: (err as Error)?.message }, "auth background task failed"));
  background.add(p);
  void p.finally(() => background.delete(p));
}
export async function authMailsSettled() {
  while (background.size) await Promise.allSettled([...background]);
}

const nameFrom = (v: unknown) => (typeof v === "string" ? v.trim().slice(0, NAME_MAX) : "");

const CONFIRMATION_TTL_S = 60 * 60 * 24;

function createAuth(db: Database) {
  const env = getEnv();
  const baseURL = publicUrl(env);
  const secret = getAuthSecret();
  return betterAuth({
    appName: "Linen & Loft",
    baseURL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [baseURL],
    telemetry: { enabled: false },
    // Into the shop's JSON log with the request id; info is skipped (it names email addresses).
    logger: {
      level: "warn",
      log: (level, message, ...args) => logger[level]({ source: "better-auth", detail: args.length ? args.map(String) : undefined }, message),
    },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification, twoFactor: twoFactorTable },
    }),
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "customer", input: false },
      },
    },
    session: { expiresIn: SESSION_EXPIRES_IN_S, updateAge: SESSION_UPDATE_AGE_S },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user: u, url }) => {
        await sendPasswordResetMail(db, u, url);
      },
      onPasswordReset: async ({ user: u }) => {
        // The owner is back in charge: guesses made before the reset no longer hold sign-in back.
        await clearPasswordLimits(db, u.email);
        runInBackground(sendPasswordChangedMail(db, u));
      },
      onExistingUserSignUp: async ({ user: u }) => {
        // An address still waiting for confirmation gets what a new sign-up gets (the same mail,
        // so the answer tells nothing): whoever proves the mailbox then chooses the password.
        if (!u.emailVerified) {
          const token = await createEmailVerificationToken(secret, u.email, undefined, CONFIRMATION_TTL_S);
          await sendConfirmationMail(db, u, withToken(baseURL, CONFIRM_PATH, token));
          return;
        }
        await sendAlreadyRegisteredMail(db, u);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: CONFIRMATION_TTL_S,
      // The link opens a page whose form confirms (routes/account/confirm-email): a GET signs no
      // one in, so a mail scanner or a link preview confirms nothing.
      sendVerificationEmail: async ({ user: u, token }) => {
        await sendConfirmationMail(db, u, withToken(baseURL, CONFIRM_PATH, token));
      },
      // Whoever signed up never proved the address: their password and sessions end here.
      beforeEmailVerification: async (u) => {
        await dropUnprovenAccess(db, u.id);
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Every account gets its profile row; the sign-up form's names travel in the body.
          after: async (u, ctx) => {
            const body = (ctx?.body ?? {}) as Record<string, unknown>;
            await ensureProfile(db, { userId: u.id, email: u.email, firstName: nameFrom(body.firstName), lastName: nameFrom(body.lastName) });
          },
        },
      },
    },
    hooks: {
      before: authGuards(db, {
        // Late-bound: the instance exists by the time a request reaches the hook.
        sendSignInLink: async (email) => {
          await getAuth(db).api.signInMagicLink({ body: { email }, headers: new Headers() });
        },
        afterResponse: runInBackground,
      }),
    },
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: baseURL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // Set by server/app.ts from the socket (or the trusted proxy); a client cannot forge it.
      ipAddress: { ipAddressHeaders: ["x-shop-client-ip"] },
      backgroundTasks: { handler: runInBackground },
    },
    // No trusted devices: once on, the code is asked at every sign-in (accounts issue, ASVS L2).
    plugins: [
      twoFactor({ issuer: "Linen & Loft", backupCodeOptions: { amount: 10, length: 10 } }),
      // The one-time sign-in link mailed to an owner whose account others' guesses hold back
      // (auth-guards.server.ts). Never a way to sign up; its endpoints are closed over HTTP.
      magicLink({
        disableSignUp: true,
        storeToken: "hashed",
        expiresIn: SIGN_IN_LINK_TTL_S,
        // Called only by the guard, already after the response (auth-guards.server.ts).
        sendMagicLink: async ({ email, token }) => {
          await sendSignInLinkMail(db, { email }, withToken(baseURL, SIGN_IN_LINK_PATH, token));
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Database, Auth>();

/** One better-auth instance per database (the shop has one; each test file has its own). */
export function getAuth(db: Database = getDb()): Auth {
  let auth = instances.get(db);
  if (!auth) {
    auth = createAuth(db);
    instances.set(db, auth);
  }
  return auth;
}
