/** Pages the account mails link to; each opens a form, and only its POST changes anything. */
export const CONFIRM_PATH = "/auth/confirm";
export const SIGN_IN_LINK_PATH = "/auth/sign-in-link";

/** How long a mailed sign-in link works (once). */
export const SIGN_IN_LINK_TTL_S = 15 * 60;

export function withToken(baseUrl: string, path: string, token: string) {
  return `${baseUrl}${path}?token=${encodeURIComponent(token)}`;
}
