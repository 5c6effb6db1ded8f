const utc = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * A moment as the admin screens show it, in UTC ("Jan 5, 2026, 3:04 PM"): server and browser print
 * the same text, so hydration never disagrees. `withZone` adds " UTC" where no column header says so.
 */
export function UtcTime({ iso, withZone = false }: { iso: string; withZone?: boolean }) {
  return (
    <time dateTime={iso}>
      {utc.format(new Date(iso))}
      {withZone ? " UTC" : null}
    </time>
  );
}
