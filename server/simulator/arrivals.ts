import type { Rng } from './random.ts';

const HOUR_MS = 3_600_000;

// Activity by UTC hour (working hours dominate) and weekday (weekends are quiet).
const HOUR_WEIGHT = [
  0.08, 0.05, 0.05, 0.05, 0.08, 0.15, 0.3, 0.6, 1, 1.2, 1.3, 1.2, 0.9, 1.1, 1.3, 1.3, 1.2, 1, 0.7,
  0.5, 0.4, 0.3, 0.2, 0.12,
];
const DAY_WEIGHT = [0.2, 1, 1.05, 1.05, 1, 0.85, 0.25]; // Sunday first
const MEAN_DAY_WEIGHT =
  (HOUR_WEIGHT.reduce((a, b) => a + b, 0) * DAY_WEIGHT.reduce((a, b) => a + b, 0)) / 7;

/**
 * When one project's pipelines were created in [start, now): a Poisson count each hour, weighted by
 * hour of day and weekday, averaging `perDay`. Yielded lazily because the caller drafts each
 * pipeline from the same `rng` between two times, and that interleaving is part of the seeded data.
 */
export function* arrivalTimes(
  rng: Rng,
  start: number,
  now: number,
  perDay: number,
): Generator<number> {
  for (let slot = Math.floor(start / HOUR_MS) * HOUR_MS; slot < now; slot += HOUR_MS) {
    const date = new Date(slot);
    const weight = HOUR_WEIGHT[date.getUTCHours()]! * DAY_WEIGHT[date.getUTCDay()]!;
    const count = rng.poisson((perDay * weight) / MEAN_DAY_WEIGHT);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(slot + rng.int(0, HOUR_MS - 1));
    times.sort((a, b) => a - b);
    for (const createdAt of times) {
      if (createdAt >= start && createdAt < now) yield createdAt;
    }
  }
}
