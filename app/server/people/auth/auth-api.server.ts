import { isAPIError } from "better-auth/api";
import { logger, type RefusalKind } from "../../platform/index.server";

/**
 * What a better-auth endpoint answered, with only its Set-Cookie headers kept to forward. A
 * refusal says what kind it is in the shop's words (better-auth's status stays in here).
 */
export type AuthOutcome<T> =
  | { ok: true; body: T; cookies: Headers }
  | { ok: false; kind: RefusalKind; code: string; message: string; cookies: Headers };

const KIND_BY_STATUS: Record<number, RefusalKind> = {
  400: "bad_input",
  401: "not_signed_in",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  415: "unsupported_type",
  422: "rejected",
  429: "rate_limited",
  503: "unavailable",
};

/** better-auth's HTTP status as a kind of refusal; any other server error is "failed", any other 4xx "bad_input". */
function kindOf(status: number): RefusalKind {
  return KIND_BY_STATUS[status] ?? (status >= 500 ? "failed" : "bad_input");
}

function cookiesOf(res: Response) {
  const headers = new Headers();
  for (const c of res.headers.getSetCookie()) headers.append("set-cookie", c);
  return headers;
}

/**
 * Runs a better-auth server API call made with `asResponse: true` and normalises success and
 * failure alike, so actions can forward the cookies and show the reason.
 */
export async function callAuth<T = Record<string, unknown>>(run: () => Promise<Response>): Promise<AuthOutcome<T>> {
  let res: Response;
  try {
    res = await run();
  } catch (err) {
    if (isAPIError(err)) {
      const body = (err.body ?? {}) as { code?: string; message?: string };
      return { ok: false, kind: kindOf(err.statusCode), code: body.code ?? "", message: body.message ?? err.message, cookies: new Headers() };
    }
    throw err;
  }
  const cookies = cookiesOf(res);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.ok || (res.status >= 300 && res.status < 400)) return { ok: true, body: body as T, cookies };
  const b = (body ?? {}) as { code?: string; message?: string };
  if (res.status >= 500) logger.error({ status: res.status, code: b.code, message: b.message }, "auth call failed");
  return { ok: false, kind: kindOf(res.status), code: b.code ?? "", message: b.message ?? "Something went wrong", cookies };
}

/** Only same-site paths: `/profile?x=1` yes; `//evil.test`, `https://evil.test`, `/\\evil` no. */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  if (to.startsWith("/auth")) return fallback;
  return to;
}
