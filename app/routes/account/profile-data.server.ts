import { PassThrough, Readable } from "node:stream";
import { data, redirect } from "react-router";
import { ACCOUNT_DELETED_PATH, DELETE_INTENT, DELETION_LINK_SENT } from "~/lib/personal-data";
import { failed } from "~/routes/_edge/auth-responses.server";
import type { CurrentUser } from "~/routes/_edge/guards.server";
import { accountHasPassword, eraseAccount, exportPersonalData, mailAccountDeletionLink, signOut, verifyAccountPassword } from "~/server/people/index.server";
import type { DataRequestSubject, PrivacyActor } from "~/server/people/index.server";
import { DomainError, getDb, logger } from "~/server/platform/http/index.server";

/**
 * The profile's 'Your data' (docs/rules/personal-data.md, The shopper's side): the ZIP of one's own
 * data and 'Delete my account'. Not a route of its own: the profile's action and the download
 * routes call it. The account is always the session's; nothing from the browser names it.
 */

/** The reviews choice; anything but 'keep' deletes them (the safe side for the person). */
const reviewsChoice = (form: FormData): "delete" | "keep" => (form.get("reviews") === "keep" ? "keep" : "delete");

/**
 * 'Delete my account'. With a password: the password, then the erasure at once; the session is
 * gone with the account, its cookie is cleared and the visitor lands on the confirmation, signed
 * out. Without one (signed up by link): a mailed link confirms (profile-data-request.tsx).
 */
export async function deleteAccountAction(request: Request, user: CurrentUser, form: FormData) {
  const db = getDb();
  const reviews = reviewsChoice(form);
  if (!(await accountHasPassword(db, user.id))) {
    await mailAccountDeletionLink(db, { userId: user.id, email: user.email, name: user.name }, reviews);
    return data({ ok: true as const, intent: DELETE_INTENT, message: DELETION_LINK_SENT, toast: { kind: "success" as const, title: DELETION_LINK_SENT } });
  }
  const check = await verifyAccountPassword(request, String(form.get("password") ?? ""));
  if (!check.ok && check.signedOut) {
    // Too many wrong passwords: the session was ended; clear its cookie and ask to sign in again.
    return redirect(`/auth?redirectTo=${encodeURIComponent("/profile")}`, { headers: await signOut(request) });
  }
  if (!check.ok) return failed({ kind: "bad_input" }, "Account not deleted", check.message, { intent: DELETE_INTENT, fieldErrors: { password: [check.message] } });
  try {
    await eraseAccount(db, user.id, { reviews, actor: { kind: "customer", id: user.id } });
  } catch (err) {
    if (err instanceof DomainError) return failed(err, "Account not deleted", err.message, { intent: DELETE_INTENT });
    throw err;
  }
  return accountDeleted(request);
}

/** After an erasure: the (already deleted) session's cookie cleared, and the confirmation page. */
export async function accountDeleted(request: Request) {
  return redirect(ACCOUNT_DELETED_PATH, { headers: await signOut(request) });
}

/**
 * The ZIP of a subject's data as a download, streamed as it is written (memory stays flat with
 * thousands of orders). The admin's copy for a customer (admin/customers/customer-data.ts) names the
 * admin as the actor in the audit log. A failure once bytes have gone can only cut the download short: logged,
 * and the browser reports an incomplete file.
 */
export function personalDataZip(subject: DataRequestSubject, actor?: PrivacyActor, filename = "my-data"): Response {
  const out = new PassThrough();
  exportPersonalData(getDb(), subject, out, actor).catch((err: unknown) => {
    logger.error({ err: (err as Error).message }, "personal data export failed");
    out.destroy(err as Error);
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(out) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${filename}-${day}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

