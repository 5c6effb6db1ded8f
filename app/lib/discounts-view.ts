import { formatMoney } from "./money";
import { formatRate } from "./pricing-view";

/**
 * What the browser sees of discount codes in the admin (`/admin/discounts`): the list, one code
 * in its editor and the choices the editor offers. Plain types, safe to import anywhere;
 * app/server/commerce/discounts/admin.server.ts builds these values. Times are ISO 8601 strings (UTC),
 * money integer cents, percentages basis points (1000 is 10%).
 */

export type DiscountKind = "percent" | "fixed" | "free_shipping";

/** Where a code stands now (computed by the pricing's `codeStatus`, the checkout's own rule). */
export type DiscountStatus = "active" | "scheduled" | "expired" | "used_up" | "inactive";

export const DISCOUNT_STATUS_LABELS: Record<DiscountStatus, string> = {
  active: "Active",
  scheduled: "Scheduled",
  expired: "Expired",
  used_up: "Used up",
  inactive: "Inactive",
};

export const DISCOUNT_KIND_LABELS: Record<DiscountKind, string> = {
  percent: "Percentage off",
  fixed: "Fixed amount off",
  free_shipping: "Free shipping",
};

/** A row of the admin discount codes table. */
export type AdminDiscountRow = {
  id: string;
  code: string;
  kind: DiscountKind;
  percentBasisPoints: number | null;
  amountCents: number | null;
  minSubtotalCents: number | null;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  /** Uses held by unpaid orders and kept by paid ones. */
  usesCount: number;
  oncePerEmail: boolean;
  active: boolean;
  status: DiscountStatus;
  /** Limited to some categories or products. */
  restricted: boolean;
  createdAt: string;
};

export type AdminDiscountQuery = { q: string; page: number };

/** One page of codes, newest first, and how many match the search. */
export type AdminDiscountList = { rows: AdminDiscountRow[]; total: number; page: number; pages: number; pageSize: number };

/** A code as its editor loads it. */
export type DiscountForEdit = Omit<AdminDiscountRow, "status" | "restricted" | "createdAt"> & {
  categoryIds: string[];
  productIds: string[];
  /** It has uses (held, kept or given back): its code text can no longer change, nor can it be deleted. */
  used: boolean;
};

export type DiscountCategoryChoice = { id: string; name: string; active: boolean };
export type DiscountProductChoice = { id: string; name: string; sku: string; active: boolean };

/** What `/admin/discounts/new` and `/admin/discounts/:id` load. */
export type DiscountEditorData =
  | { notFound: true }
  | {
      notFound: false;
      discount: DiscountForEdit | null;
      categories: DiscountCategoryChoice[];
      /** The products the code is limited to (others are found through the product search). */
      chosenProducts: DiscountProductChoice[];
    };

/** '10%', '$5.00 off', 'Free shipping'. */
export function discountValueLabel(row: Pick<AdminDiscountRow, "kind" | "percentBasisPoints" | "amountCents">): string {
  if (row.kind === "free_shipping") return "Free shipping";
  if (row.kind === "percent") return formatRate(row.percentBasisPoints ?? 0);
  return `${formatMoney(row.amountCents ?? 0)} off`;
}

/** '3 / 10', '3 / ∞' (no limit). */
export function usesLabel(row: Pick<AdminDiscountRow, "usesCount" | "usageLimit">): string {
  return `${row.usesCount.toLocaleString("en-US")} / ${row.usageLimit === null ? "∞" : row.usageLimit.toLocaleString("en-US")}`;
}
