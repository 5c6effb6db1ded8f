/**
 * Returns and the EU right of withdrawal (docs/rules/returns.md): the owner's setting, the reasons
 * a shopper picks from, the states and the exact words the pages show. Browser-safe and free of zod.
 */

/** site_settings key of the returns setting (its own row, like the reminder's). */
export const RETURNS_SETTING_KEY = "returns_policy";

export type ReturnsSetting = {
  /** Days after the order shipped during which the shopper may ask for a return; 0 turns returns off. */
  returnWindowDays: number;
  /** The 'Withdraw from contract here' button and the footer's link (off by default). */
  withdrawalEnabled: boolean;
  /** Days after delivery (or shipping, when no delivery was recorded) the withdrawal button stays. */
  withdrawalDays: number;
};

export const DEFAULT_RETURNS_SETTING: ReturnsSetting = { returnWindowDays: 30, withdrawalEnabled: false, withdrawalDays: 14 };
export const RETURN_WINDOW_MAX_DAYS = 365;
export const WITHDRAWAL_MIN_DAYS = 14;
export const WITHDRAWAL_MAX_DAYS = 365;

export const RETURNS_FIELDS = { returnWindowDays: "returnWindowDays", withdrawalEnabled: "withdrawalEnabled", withdrawalDays: "withdrawalDays" } as const;

const wholeIn = (v: unknown, min: number, max: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** The stored value over the defaults, field by field; anything out of range stored by hand is ignored. */
export function resolveReturnsSetting(stored: unknown): ReturnsSetting {
  const v = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  return {
    returnWindowDays: wholeIn(v.returnWindowDays, 0, RETURN_WINDOW_MAX_DAYS) ? v.returnWindowDays : DEFAULT_RETURNS_SETTING.returnWindowDays,
    withdrawalEnabled: typeof v.withdrawalEnabled === "boolean" ? v.withdrawalEnabled : DEFAULT_RETURNS_SETTING.withdrawalEnabled,
    withdrawalDays: wholeIn(v.withdrawalDays, WITHDRAWAL_MIN_DAYS, WITHDRAWAL_MAX_DAYS) ? v.withdrawalDays : DEFAULT_RETURNS_SETTING.withdrawalDays,
  };
}

export type ReturnsSettingAnswer =
  | { ok: true; message: string; setting: ReturnsSetting }
  | { ok: false; message: string; fieldErrors?: Record<string, string> };

/** Reads the settings card's form: each problem beside its field. */
export function parseReturnsForm(form: FormData): { ok: true; value: ReturnsSetting } | { ok: false; message: string; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  const whole = (name: string, min: number, max: number, label: string) => {
    const raw = String(form.get(name) ?? "").trim();
    const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!wholeIn(n, min, max)) fieldErrors[name] = `${label} must be a whole number from ${min} to ${max}.`;
    return n;
  };
  const returnWindowDays = whole(RETURNS_FIELDS.returnWindowDays, 0, RETURN_WINDOW_MAX_DAYS, "Return window (days)");
  const withdrawalDays = whole(RETURNS_FIELDS.withdrawalDays, WITHDRAWAL_MIN_DAYS, WITHDRAWAL_MAX_DAYS, "Withdrawal period (days)");
  const withdrawalEnabled = form.get(RETURNS_FIELDS.withdrawalEnabled) === "on";
  if (Object.keys(fieldErrors).length) return { ok: false, message: Object.values(fieldErrors)[0]!, fieldErrors };
  return { ok: true, value: { returnWindowDays, withdrawalEnabled, withdrawalDays } };
}

export const RETURN_REASON_LABELS = {
  damaged: "Damaged",
  wrong_item: "Wrong item",
  not_as_described: "Not as described",
  changed_mind: "Changed my mind",
  other: "Other",
} as const;
export type ReturnReason = keyof typeof RETURN_REASON_LABELS;
export const RETURN_REASON_KEYS = Object.keys(RETURN_REASON_LABELS) as ReturnReason[];

export const RETURN_STATE_LABELS = {
  requested: "Requested",
  approved: "Approved",
  rejected: "Rejected",
  received: "Received",
  refunded: "Refunded",
  closed: "Closed",
} as const;
export type ReturnState = keyof typeof RETURN_STATE_LABELS;
export const RETURN_STATE_KEYS = Object.keys(RETURN_STATE_LABELS) as ReturnState[];

export const WINDOW_CLOSED = "The return window for this order has closed.";
export const WITHDRAWAL_BUTTON = "Withdraw from contract here";
export const WITHDRAWAL_CONFIRM = "Confirm withdrawal";
export const WITHDRAWAL_FOOTER_LINK = "Withdraw from contract";
/** The footer form's one answer, whether or not the order and email match. */
export const ORDER_LINK_SENT = "If an order with that number and email exists, we have emailed its link to that address.";

/** A return as the shopper's order page shows it. */
export type ShopperReturnView = {
  returnNumber: string;
  kind: "return" | "withdrawal";
  state: ReturnState;
  createdAt: string;
  reason: string;
  shopperMessage: string;
  lines: { name: string; quantity: number }[];
};

/** An order line the shopper may still return, and how many of it. */
export type ReturnableLineView = { orderItemId: string; name: string; quantity: number; returnable: number };

/** What the order page needs for returns and the withdrawal button. */
export type OrderReturnsView = {
  returns: ShopperReturnView[];
  /** Lines with units left to return (empty: nothing to offer). */
  returnable: ReturnableLineView[];
  /** Returns on, the order shipped and its window open. */
  windowOpen: boolean;
  /** The window passed (the page says so instead of offering the form). */
  windowClosed: boolean;
  /** The withdrawal button shows. */
  withdrawalOpen: boolean;
};
