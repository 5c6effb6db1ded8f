/**
 * A cell for a spreadsheet: quoted, and a leading =, +, -, @, tab or CR gets a ' so a
 * spreadsheet never runs it as a formula (CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
