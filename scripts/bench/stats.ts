/** Percentiles and small formatting helpers shared by every benchmark part. */

export type Percentiles = { n: number; p50: number; p95: number; p99: number; mean: number; min: number; max: number };

/** Nearest-rank percentile on a sorted copy: the value below which p% of the samples fall. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.length ? sum / sorted.length : NaN),
    min: round(sorted[0] ?? NaN),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(v: number, digits = 2): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? round(a / b, 3) : NaN);

export function fmt(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export const kb = (bytes: number) => round(bytes / 1024, 1);
export const mb = (bytes: number) => round(bytes / (1024 * 1024), 1);
