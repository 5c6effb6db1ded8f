const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * 'Nov 22, 2026' (`short`) or 'November 22, 2026' (`long`), the day in UTC, as Intl.DateTimeFormat
 * prints it for en-US, the same on the server and in the browser. Written out because a page that
 * creates a date format pays for the browser's date formatting set-up while it loads.
 */
export function formatUtcDate(value: string | Date, month: "short" | "long"): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  const name = MONTHS[date.getUTCMonth()]!;
  return `${month === "short" ? name.slice(0, 3) : name} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
