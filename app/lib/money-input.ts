/**
 * Dollar amounts typed into the admin's forms. Apart from ./money, which every storefront page
 * loads to print prices, because only the admin's input schemas parse money.
 */

/** Parses a dollar amount typed by a person ("12.5", "$1,299.00") into cents, or null. */
export function parseMoneyToCents(input: string): number | null {
  const s = input.trim().replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
  const [whole, frac = ""] = s.split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}
