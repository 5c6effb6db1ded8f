import { redirect } from "react-router";
import { refuse } from "~/routes/_edge/errors.server";
import { getAuth } from "~/server/people/index.server";
import type { Route } from "./+types/auth-api";

/**
 * better-auth's endpoints that a browser or a mail link reaches over HTTP. The shop's own forms
 * call better-auth on the server, so everything else it offers (update-user, change-email,
 * delete-user, list-sessions, …) stays closed: a profile changes only through /profile, with
 * the shop's rules (name sizes, no email or role change).
 */
const OPEN = {
  GET: [/^\/reset-password\/[^/]+$/, /^\/get-session$/],
  POST: [
    /^\/sign-in\/email$/,
    /^\/sign-up\/email$/,
    /^\/sign-out$/,
    /^\/request-password-reset$/,
    /^\/reset-password$/,
    /^\/send-verification-email$/,
    /^\/two-factor\/verify-(totp|backup-code)$/,
  ],
} as const;

function isOpen(request: Request) {
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
  const allowed = OPEN[request.method as keyof typeof OPEN] ?? [];
  return allowed.some((pattern) => pattern.test(path));
}

/**
 * better-auth's own confirmation link (in mails sent before the shop's confirmation page) would
 * confirm and sign in on a GET: it only leads to that page, whose form confirms.
 */
function oldConfirmationLink(request: Request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.pathname !== "/api/auth/verify-email") return null;
  return redirect(`/auth/confirm?token=${encodeURIComponent(url.searchParams.get("token") ?? "")}`);
}

async function handle(request: Request) {
  const old = oldConfirmationLink(request);
  if (old) return old;
  if (!isOpen(request)) refuse({ kind: "not_found", message: "Not found" });
  return getAuth().handler(request);
}

export const loader = ({ request }: Route.LoaderArgs) => handle(request);
export const action = ({ request }: Route.ActionArgs) => handle(request);
