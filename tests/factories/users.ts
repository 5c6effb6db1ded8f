import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { Page } from "playwright-core";
import type { Db } from "~/server/platform/db/client.server";
import { insertPasswordUser } from "~/server/people/accounts/password-user.server";
import { session } from "~/server/platform/db/schema";
import { getAuthSecret } from "~/server/platform/secrets.server";
import { E2E_AUTH_SECRET } from "../setup/e2e-secret";

export type TestUser = {
  id: string;
  email: string;
  /** The plain password, for signing in through the form. */
  password: string;
  name: string;
  role: "customer" | "admin";
};

export type UserOptions = {
  role?: "customer" | "admin";
  email?: string;
  password?: string;
  /** Email confirmed (default true); false makes an account that must confirm before signing in. */
  verified?: boolean;
  firstName?: string;
  lastName?: string;
  phone?: string;
};

export const DEFAULT_TEST_PASSWORD = "correct-horse-battery";

/**
 * One hash per password for the whole test process. better-auth's scrypt costs 100–200 ms of CPU a
 * hash, and nearly every user a test makes has the same password; a hash made once still verifies
 * for each of them as a sign-up's own would.
 */
const hashes = new Map<string, Promise<string>>();
function passwordHashOf(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
    hash.catch(() => hashes.delete(password));
  }
  return hash;
}

/**
 * An account as an email-and-password sign-up leaves it (user, credential account, profile),
 * confirmed unless `verified: false`. Unique email unless given.
 */
export async function makeUser(db: Db, opts: UserOptions = {}): Promise<TestUser> {
  const email = (opts.email ?? `user-${randomBytes(5).toString("hex")}@example.test`).toLowerCase();
  const password = opts.password ?? DEFAULT_TEST_PASSWORD;
  const role = opts.role ?? "customer";
  const firstName = opts.firstName ?? (role === "admin" ? "Ada" : "Casey");
  const lastName = opts.lastName ?? (role === "admin" ? "Admin" : "Customer");
  const name = `${firstName} ${lastName}`.trim();
  const passwordHash = await passwordHashOf(password);
  const emailVerified = opts.verified ?? true;
  const id = await db.transaction((tx) =>
    insertPasswordUser(tx, { email, passwordHash, name, role, emailVerified, firstName, lastName, phone: opts.phone }),
  );
  return { id, email, password, name, role };
}

export const makeAdmin = (db: Db, opts: Omit<UserOptions, "role"> = {}) => makeUser(db, { ...opts, role: "admin" });
export const makeCustomer = (db: Db, opts: Omit<UserOptions, "role"> = {}) => makeUser(db, { ...opts, role: "customer" });

export const SESSION_COOKIE = "better-auth.session_token";

/** better-auth's signed cookie value: `token.base64(hmac-sha256(secret, token))`, URI-encoded. */
function signToken(token: string, secret: string) {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return encodeURIComponent(`${token}.${signature}`);
}

/**
 * A session row for the user, as a sign-in makes it, and its signed cookie value. Skips the sign-in
 * form and its rate limits; `secret` defaults to this process's auth secret (integration tests).
 */
export async function createSession(db: Db, userId: string, secret: string = getAuthSecret()) {
  const token = randomBytes(24).toString("base64url");
  const now = new Date();
  await db.insert(session).values({
    id: randomUUID(),
    token,
    userId,
    expiresAt: new Date(now.getTime() + 7 * 24 * 3600 * 1000),
    createdAt: now,
    updatedAt: now,
  });
  return { token, cookieValue: signToken(token, secret) };
}

/** A `Cookie` header value that signs the user in (integration tests). */
export async function sessionCookie(db: Db, userId: string): Promise<string> {
  const { cookieValue } = await createSession(db, userId);
  return `${SESSION_COOKIE}=${cookieValue}`;
}

/**
 * A Request as the given user would send it (anonymous when `as` is null), for calling loaders
 * and actions directly: `await loader({ request: await requestAs(admin, "/admin"), params: {}, context: {} as any })`.
 */
export async function requestAs(db: Db, as: { id: string } | null, path: string, init: RequestInit = {}): Promise<Request> {
  const headers = new Headers(init.headers);
  if (as) headers.append("cookie", await sessionCookie(db, as.id));
  if (!headers.has("x-shop-client-ip")) headers.set("x-shop-client-ip", "192.0.2.1");
  return new Request(new URL(path, "http://localhost:3000"), { ...init, headers });
}

// ---- Browser tests ----

type ShopLike = { baseUrl: string; db: Db; newPage(): Promise<Page> };

/** Signs a browser page in as the user by setting a session cookie the shop accepts. */
export async function signInPageAs(shop: ShopLike, page: Page, as: { id: string }) {
  const { cookieValue } = await createSession(shop.db, as.id, E2E_AUTH_SECRET);
  await page.context().addCookies([
    { name: SESSION_COOKIE, value: cookieValue, url: shop.baseUrl, httpOnly: true, sameSite: "Lax" },
  ]);
}

/** A new page signed in as a fresh admin (`page.user` is the admin). No form, no rate limit. */
export async function asAdmin(shop: ShopLike, opts: Omit<UserOptions, "role"> = {}): Promise<Page & { user: TestUser }> {
  const admin = await makeAdmin(shop.db, opts);
  const page = await shop.newPage();
  await signInPageAs(shop, page, admin);
  return Object.assign(page, { user: admin });
}

/** A new page signed in as a fresh customer (`page.user` is the customer). */
export async function asCustomer(shop: ShopLike, opts: Omit<UserOptions, "role"> = {}): Promise<Page & { user: TestUser }> {
  const customer = await makeCustomer(shop.db, opts);
  const page = await shop.newPage();
  await signInPageAs(shop, page, customer);
  return Object.assign(page, { user: customer });
}

/**
 * Signs in through the real /auth form, as a person would, and waits until the shop has left
 * /auth. Counts against the sign-in rate limits; prefer asAdmin/asCustomer when the form is not
 * what the test is about.
 */
export async function signIn(page: Page, email: string, password: string, redirectTo?: string) {
  await page.goto(redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth");
  await page.getByRole("tab", { name: "Sign In" }).click();
  const form = page.getByRole("tabpanel", { name: "Sign In" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/auth"));
}

/** The current authenticator code for a setup key (the base32 `secret` an authenticator app is given). */
export async function totpCode(setupKey: string): Promise<string> {
  const { base32 } = await import("@better-auth/utils/base32");
  const { createOTP } = await import("@better-auth/utils/otp");
  const raw = new TextDecoder().decode(base32.decode(setupKey));
  return createOTP(raw).totp();
}
