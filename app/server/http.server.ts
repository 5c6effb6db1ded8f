import { data, redirect } from "react-router";
import { getDb } from "./db/client.server";
import { getAuth } from "./auth/auth.server";
import { rememberSessionCookies } from "./auth/session-refresh.server";

export type CurrentUser = { id: string; email: string; name: string; role: "customer" | "admin"; emailVerified: boolean };

/**
 * The signed-in user, or null. A tampered, expired or orphaned session cookie counts as signed
 * out, never as an error.
 */
export async function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  if (!request.headers.get("cookie")?.includes("session_token")) return null;
  try {
    const { headers, response: result } = await getAuth(getDb()).api.getSession({ headers: request.headers, returnHeaders: true });
    // A session extended by this read (or found expired) sends its renewed (or cleared) cookie.
    rememberSessionCookies(headers);
    if (!result) return null;
    const u = result.user as typeof result.user & { role?: string };
    return { id: u.id, email: u.email, name: u.name, role: u.role === "admin" ? "admin" : "customer", emailVerified: u.emailVerified };
  } catch {
    return null;
  }
}

function pathOf(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw redirect(`/auth?redirectTo=${encodeURIComponent(pathOf(request))}`);
  return user;
}

/** The one admin guard: anonymous people go to /auth and come back; customers get a 403. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw data("You don't have access to this page", { status: 403 });
  return user;
}

/** Throws a response (404 by default) when the condition fails. */
export function invariantResponse(condition: unknown, message = "Not Found", status = 404): asserts condition {
  if (!condition) throw data(message, { status });
}
