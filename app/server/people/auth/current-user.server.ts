import { getDb } from "../../platform/index.server";
import { getAuth } from "./auth.server";
import { rememberSessionCookies, rememberViewer } from "./session-refresh.server";

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
    const role = u.role === "admin" ? "admin" : "customer";
    rememberViewer(role);
    return { id: u.id, email: u.email, name: u.name, role, emailVerified: u.emailVerified };
  } catch {
    return null;
  }
}
