import { data } from "react-router";
import type { RefundActionResult } from "~/components/admin/refund-dialog";
import type { FailedRefundActionResult } from "~/components/admin/failed-refunds";
import { parseRefundForm, type RefundFormInput } from "~/lib/refund-input";
import { formatMoney } from "~/lib/money";
import { respond } from "~/routes/_edge/errors.server";
import { closeFailedRefund, orderMovements, RefundError, refundOrder, retryFailedRefund, type RefundActor, type RefundOutcome } from "~/server/commerce/index.server";
import type { Db } from "~/server/platform/http/index.server";

/**
 * The order page's refund intents: 'refund' (the Refund dialog), 'retry-refund' and
 * 'close-refund' (a refund the provider refused). Refusals come back to the dialog or the card
 * that asked, a field's beside that field.
 */

/** What a refund decided says, by what the provider answered at once. */
function outcomeMessage(outcome: RefundOutcome): string {
  const amount = formatMoney(outcome.amountCents);
  if (outcome.state === "succeeded") return `Refunded ${amount}.`;
  if (outcome.state === "pending") return `Refund of ${amount} sent: waiting for the payment provider.`;
  return `The payment provider refused the refund of ${amount}: it will be tried again, and it shows under Needs attention.`;
}

/** The refunds module names the input's fields; the dialog names its own. */
function formField(field: string | undefined, input: RefundFormInput): string {
  if (!field) return "form";
  const line = /^lines\.(\d+)\./.exec(field);
  if (line) {
    const asked = input.lines[Number(line[1])];
    return asked ? `quantity.${asked.orderItemId}` : "form";
  }
  if (field === "shippingCents") return "shipping";
  if (field === "adjustmentCents") return "adjustment";
  if (field === "adjustmentReason" || field === "reason") return field;
  return "form";
}

async function refund(db: Db, orderId: string, form: Record<string, unknown>, actor: RefundActor) {
  const parsed = parseRefundForm(form);
  if (!parsed.ok) {
    const first = Object.values(parsed.errors)[0]!;
    return respond<RefundActionResult>({ kind: "bad_input" }, { intent: "refund", ok: false, message: first, errors: parsed.errors });
  }
  try {
    const outcome = await refundOrder(db, { orderId, ...parsed.input, actor });
    return data<RefundActionResult>({ intent: "refund", ok: true, message: outcomeMessage(outcome) });
  } catch (err) {
    if (!(err instanceof RefundError)) throw err;
    const field = formField(err.field, parsed.input);
    const body: RefundActionResult =
      field === "form" ? { intent: "refund", ok: false, message: err.message } : { intent: "refund", ok: false, message: err.message, errors: { [field]: err.message } };
    return respond<RefundActionResult>(err, body);
  }
}

async function failedRefund(db: Db, orderId: string, intent: "retry-refund" | "close-refund", form: Record<string, unknown>, actor: RefundActor) {
  const movementId = typeof form.movementId === "string" ? form.movementId : "";
  // Only a refund of the order on the page.
  if (!(await orderMovements(db, orderId)).some((m) => m.id === movementId && m.kind === "refund")) {
    return respond<FailedRefundActionResult>({ kind: "not_found" }, { intent, ok: false, message: "There is no such refund on this order." });
  }
  try {
    if (intent === "close-refund") {
      await closeFailedRefund(db, movementId, actor);
      return data<FailedRefundActionResult>({ intent, ok: true, message: "The refund was closed: it no longer counts as refunded." });
    }
    const outcome = await retryFailedRefund(db, movementId, actor);
    if (outcome.state === "failed") {
      return data<FailedRefundActionResult>({ intent, ok: false, message: `The payment provider refused the refund of ${formatMoney(outcome.amountCents)} again.` });
    }
    return data<FailedRefundActionResult>({ intent, ok: true, message: outcomeMessage(outcome) });
  } catch (err) {
    if (!(err instanceof RefundError)) throw err;
    return respond<FailedRefundActionResult>(err, { intent, ok: false, message: err.message });
  }
}

export function refundAction(db: Db, orderId: string, form: Record<string, unknown>, actor: RefundActor) {
  if (form.intent === "refund") return refund(db, orderId, form, actor);
  return failedRefund(db, orderId, form.intent === "close-refund" ? "close-refund" : "retry-refund", form, actor);
}
