import { data, redirect } from "react-router";
import { type CurrentUser, getCurrentUser } from "~/server/people/index.server";
import type { RefusalKind } from "~/server/platform/http/index.server";
import { refuse } from "./errors.server";

/**
 * The guards loaders and actions call first. Who is signed in is app/server/people/auth's question
 * (getCurrentUser); stopping the request with a redirect or a refusal is the route edge's.
 */
export { getCurrentUser, type CurrentUser };

function pathOf(request: Request) {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** The signed-in user; anonymous people are sent to /auth and brought back afterwards. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw redirect(`/auth?redirectTo=${encodeURIComponent(pathOf(request))}`);
  return user;
}

/** The one admin guard: anonymous people go to /auth and come back; customers are refused (403). */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") refuse({ kind: "forbidden", message: "You don't have access to this page" });
  return user;
}

/** Stops the request with the message (not found by default) when the condition fails. */
export function invariantResponse(condition: unknown, message = "Not Found", kind: RefusalKind = "not_found"): asserts condition {
  if (!condition) refuse({ kind, message });
}
