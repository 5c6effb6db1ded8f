/** A size for people: `formatBytes(5 * 1024 * 1024)` → `5 MB`, `2048` → `2 KB`, `900` → `900 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
