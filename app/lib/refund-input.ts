import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { isUuid } from "./uuid";
import { parseMoneyToCents } from "./money-input";
import { shareHalfUp } from "./refund-amounts";

/**
 * The admin's 'Refund' dialog: what it shows (the order's refundable parts, as the server's
 * refundableFor reads them), the live total it prints before confirming, and the form it posts,
 * read by the order page's action. The total here is only shown: the server computes the same
 * shares again and its figure is what is refunded.
 */

export type RefundableLineView = {
  orderItemId: string;
  name: string;
  quantity: number;
  refundedQuantity: number;
  refundableQuantity: number;
  refundableCents: number;
  stockTracked: boolean;
};

export type RefundableView = {
  version: number;
  lines: RefundableLineView[];
  shippingRefundableCents: number;
  maxRefundCents: number;
};

/**
 * A line's share for `k` of the `r` units still refundable, `A` cents still refundable on it:
 * round-half-up(A·k/r), all of A when k = r — the server's own function, so the dialog shows its figure.
 */
export function lineShareCents(refundableCents: number, refundableQuantity: number, k: number): number {
  return shareHalfUp(refundableCents, k, refundableQuantity);
}

/** The dialog's total: each line's share, the shipping and the adjustment. */
export function refundTotalCents(
  view: Pick<RefundableView, "lines">,
  picked: { quantities: Record<string, number>; shippingCents: number; adjustmentCents: number },
): number {
  const lines = view.lines.reduce((sum, l) => sum + lineShareCents(l.refundableCents, l.refundableQuantity, picked.quantities[l.orderItemId] ?? 0), 0);
  return lines + picked.shippingCents + picked.adjustmentCents;
}

export const REFUND_TEXT_MAX = 500;

export const REFUND_MESSAGES = {
  amount: "Enter an amount like 12.50.",
  quantity: "Enter a whole number of units, 0 or more.",
  adjustmentReason: "Say why you refund this extra amount.",
  nothing: "Choose something to refund.",
  tooLong: `At most ${REFUND_TEXT_MAX} characters.`,
  version: "Reload the order and try again.",
  returnId: "This return cannot be refunded here. Reload the order and try again.",
} as const;

/** Typed dollars ('' is none) → cents, or undefined when it is not an amount. */
function cents(raw: unknown): number | undefined {
  const s = typeof raw === "string" ? raw.trim() : "";
  if (s === "") return 0;
  return parseMoneyToCents(s) ?? undefined;
}

const optionalText = z
  .string()
  .trim()
  .max(REFUND_TEXT_MAX, REFUND_MESSAGES.tooLong)
  .optional()
  .transform((s) => (s ? s : null));

const RefundFields = z.object({
  version: z.coerce.number({ error: REFUND_MESSAGES.version }).int(REFUND_MESSAGES.version).positive(REFUND_MESSAGES.version),
  shipping: z.string().optional().transform((v, ctx) => {
    const c = cents(v);
    if (c === undefined) ctx.addIssue({ code: "custom", message: REFUND_MESSAGES.amount });
    return c ?? 0;
  }),
  adjustment: z.string().optional().transform((v, ctx) => {
    const c = cents(v);
    if (c === undefined) ctx.addIssue({ code: "custom", message: REFUND_MESSAGES.amount });
    return c ?? 0;
  }),
  adjustmentReason: optionalText,
  reason: optionalText,
  // A refund made for a received return, whose stock was settled at receipt.
  returnId: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || isUuid(v), REFUND_MESSAGES.returnId)
    .transform((v) => (v ? v : null)),
});

export type RefundFormInput = {
  expectedVersion: number;
  lines: { orderItemId: string; quantity: number; restock: boolean }[];
  shippingCents: number;
  adjustmentCents: number;
  adjustmentReason: string | null;
  reason: string | null;
  returnId: string | null;
};

export type RefundFormResult = { ok: true; input: RefundFormInput } | { ok: false; errors: Record<string, string> };

/**
 * The dialog's form: `version`, `quantity.<order item id>` and `restock.<order item id>` (checked:
 * present) per line, `shipping` and `adjustment` in dollars, `adjustmentReason`, `reason`. Each
 * problem is reported beside its field (named as the form names it); lines of 0 are left out.
 */
export function parseRefundForm(form: Record<string, unknown>): RefundFormResult {
  const errors: Record<string, string> = {};
  const parsed = RefundFields.safeParse(form);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  const lines: RefundFormInput["lines"] = [];
  for (const [key, raw] of Object.entries(form)) {
    if (!key.startsWith("quantity.")) continue;
    const orderItemId = key.slice("quantity.".length);
    const s = typeof raw === "string" ? raw.trim() : "";
    if (!/^\d{1,6}$/.test(s || "0")) {
      errors[key] = REFUND_MESSAGES.quantity;
      continue;
    }
    const quantity = Number(s || "0");
    if (quantity > 0) lines.push({ orderItemId, quantity, restock: form[`restock.${orderItemId}`] !== undefined });
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const f = parsed.data;
  if (f.adjustment > 0 && !f.adjustmentReason) errors.adjustmentReason = REFUND_MESSAGES.adjustmentReason;
  if (lines.length === 0 && f.shipping === 0 && f.adjustment === 0) errors.form = REFUND_MESSAGES.nothing;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      expectedVersion: f.version,
      lines,
      shippingCents: f.shipping,
      adjustmentCents: f.adjustment,
      adjustmentReason: f.adjustmentReason,
      reason: f.reason,
      returnId: f.returnId,
    },
  };
}
