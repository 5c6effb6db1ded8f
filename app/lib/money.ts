/**
 * A whole number with commas between thousands, as `toLocaleString("en-US")` prints it:
 * `groupDigits(12345)` → `12,345`. Written out because a page's first `toLocaleString` loads the
 * browser's number formatting, which cost a slowed phone about 30 ms while hydrating /shop.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  return (n < 0 ? "-" : "") + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Money is integer cents until a view prints it: `formatMoney(1250)` → `$12.50`. */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  const dollars = groupDigits(Math.floor(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}
