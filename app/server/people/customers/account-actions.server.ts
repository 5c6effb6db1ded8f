import { eq } from "drizzle-orm";
import { z } from "zod";
import { CUSTOMER_ACTIONS, type CustomerAction } from "~/lib/customers-view";
import { requestPasswordReset, resendConfirmation } from "../auth/flows.server";
import { type Db, DomainError, logger, type RefusalKind, user } from "../../platform/index.server";
import { findCustomer } from "./detail.server";

export const CustomerActionInput = z.object({
  intent: z.enum(CUSTOMER_ACTIONS, { error: "This action is not supported" }),
});

/** The action was refused: the customer is gone or a guest, the address is confirmed already, or better-auth said no. */
export class CustomerActionError extends DomainError<RefusalKind> {}

const SUCCESS: Record<CustomerAction, (email: string) => string> = {
  "resend-confirmation": (email) => `Confirmation email sent to ${email}.`,
  "password-reset": (email) => `Password reset email sent to ${email}.`,
};

/**
 * An account action an admin takes from a customer's page. The mails go through better-auth's
 * own endpoints, as if the customer had asked (same links, same expiry, same rate limits per
 * address and per the admin's IP), and each attempt is logged with the admin who made it.
 * Answers the success message; a refusal is a CustomerActionError.
 */
export async function runCustomerAccountAction(
  db: Db,
  request: Request,
  input: { customerId: string; action: CustomerAction; admin: { id: string; email: string } },
): Promise<string> {
  const customer = await findCustomer(db, input.customerId);
  if (!customer) throw new CustomerActionError("Customer not found", "not_found");
  const [account] = customer.userId
    ? await db.select({ id: user.id, email: user.email, verified: user.emailVerified }).from(user).where(eq(user.id, customer.userId))
    : [];
  const log = { adminId: input.admin.id, customerId: customer.id, userId: account?.id ?? null, action: input.action };
  if (!account) {
    logger.info({ ...log, outcome: "no_account" }, "customer account action refused");
    throw new CustomerActionError("This customer is a guest: there is no account to act on.", "conflict");
  }
  if (input.action === "resend-confirmation" && account.verified) {
    logger.info({ ...log, outcome: "already_confirmed" }, "customer account action refused");
    throw new CustomerActionError("This account's email address is already confirmed.", "conflict");
  }
  const outcome =
    input.action === "resend-confirmation" ? await resendConfirmation(request, account.email) : await requestPasswordReset(request, account.email);
  if (!outcome.ok) {
    logger.warn({ ...log, outcome: outcome.kind, code: outcome.code }, "customer account action failed");
    throw new CustomerActionError(outcome.message, outcome.kind);
  }
  logger.info({ ...log, outcome: "sent" }, "customer account action");
  return SUCCESS[input.action](account.email);
}
