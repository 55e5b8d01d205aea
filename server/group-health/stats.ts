/** Small statistics the health computations share; inputs are never mutated. */

/** The median of numbers (mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in (0, 100]) of ascending-sorted numbers; null when empty. */
export function percentileSorted(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A percentage with one decimal, 0 when the denominator is 0 (DESIGN §3.1's rounding). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** Integer seconds, or null. */
export function roundSeconds(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}

/** `YYYY-MM-DD` of a UTC day. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
