/**
 * Everything the shop keeps in a visitor's browser: every cookie, every localStorage and every
 * sessionStorage key (docs/rules/visitor-storage.md). One list, read by the privacy page's template
 * (app/server/content/pages) and by the browser test that fails on any key not listed here
 * (tests/e2e/visitor-storage.test.ts). Each entry says why it is strictly necessary for a service
 * the visitor asked for, so the shop sets nothing that would need consent (ePrivacy art. 5(3); EDPB
 * guidelines 2/2023 cover local and session storage as well as cookies). A key that is not
 * strictly necessary (analytics, preferences, advertising) has no place in the shop.
 */

export type StorageKind = "cookie" | "localStorage" | "sessionStorage";

export type StoredKey = {
  /** The exact name; a cookie set on https also carries the __Secure- prefix (see `documentedKey`). */
  name: string;
  kind: StorageKind;
  /** Who meets it: every visitor, or only the shop's staff in the admin. */
  who: "visitors" | "staff";
  purpose: string;
  lifetime: string;
  necessary: string;
};

export const VISITOR_STORAGE: readonly StoredKey[] = [
  {
    name: "better-auth.session_token",
    kind: "cookie",
    who: "visitors",
    purpose: "Keeps you signed in to your account (signed, HttpOnly: scripts cannot read it).",
    lifetime: "7 days, renewed once a day while you use the shop; removed when you sign out.",
    necessary: "Signing in is a service you ask for; without it every page would forget who you are.",
  },
  {
    name: "better-auth.two_factor",
    kind: "cookie",
    who: "visitors",
    purpose: "Holds a sign-in between your password and your two-factor code (accounts with two-factor only).",
    lifetime: "10 minutes, or until the code is entered.",
    necessary: "Two-factor sign-in, which you turned on, cannot finish without it.",
  },
  {
    name: "shopping-cart",
    kind: "localStorage",
    who: "visitors",
    purpose: "The products and quantities in your cart.",
    lifetime: "Until you empty the cart or your order is paid.",
    necessary: "Your cart is the service you asked for by pressing 'Add to Cart'.",
  },
  {
    name: "shopping-cart-owner",
    kind: "localStorage",
    who: "visitors",
    purpose: "Which account (or none) the cart in this browser belongs to, so one person's cart never shows for another.",
    lifetime: "Until you sign out.",
    necessary: "Keeps a cart to the person who filled it on a shared computer.",
  },
  {
    name: "shopping-cart-checkout",
    kind: "localStorage",
    who: "visitors",
    purpose: "The cart as it was when you went to pay, so it comes back if you leave the payment page.",
    lifetime: "Until the order is paid or you return to the cart.",
    necessary: "Part of the checkout you started: without it a cancelled payment would lose your cart.",
  },
  {
    name: "shopping-cart-checkout-id",
    kind: "localStorage",
    who: "visitors",
    purpose: "The id of the checkout you started, so pressing 'Place order' twice makes one order, not two.",
    lifetime: "Until the order is paid or the cart changes.",
    necessary: "Keeps you from being charged twice for one cart.",
  },
  {
    name: "shopping-cart-discount",
    kind: "localStorage",
    who: "visitors",
    purpose: "The discount code you typed in the cart, carried to the checkout.",
    lifetime: "Until the order is paid or you remove the code.",
    necessary: "Applies the code you entered to the order you are placing.",
  },
  {
    name: "shopping-cart-notice",
    kind: "sessionStorage",
    who: "visitors",
    purpose: "Which cart lines changed (price, stock) since you last looked, to tell you once.",
    lifetime: "This tab only; gone when it closes.",
    necessary: "Tells you what changed in the cart you are buying before you pay.",
  },
  {
    name: "react-router-scroll-positions",
    kind: "sessionStorage",
    who: "visitors",
    purpose: "Where you were on each page of this tab, so Back returns you to the same place.",
    lifetime: "This tab only; gone when it closes.",
    necessary: "Makes the browser's Back button work as you expect on the pages you open.",
  },
  {
    name: "sidebar_state",
    kind: "cookie",
    who: "staff",
    purpose: "Whether the admin's side menu is open or collapsed (admin pages only).",
    lifetime: "Until the browser closes.",
    necessary: "Set only when a staff member collapses or opens the menu, and kept only for that browser session.",
  },
];

const SECURE_PREFIX = "__Secure-";

/** The entry for a key found in the browser, or undefined when the key is not documented. */
export function documentedKey(kind: StorageKind, name: string): StoredKey | undefined {
  const bare = kind === "cookie" && name.startsWith(SECURE_PREFIX) ? name.slice(SECURE_PREFIX.length) : name;
  return VISITOR_STORAGE.find((k) => k.kind === kind && k.name === bare);
}

export const STORAGE_KIND_LABEL: Record<StorageKind, string> = {
  cookie: "Cookie",
  localStorage: "Local storage",
  sessionStorage: "Session storage",
};
