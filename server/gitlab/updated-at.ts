/**
 * GitLab's `updated_at` as a change marker comparable across its two APIs. REST writes milliseconds
 * (`2016-08-11T11:28:34.085Z`, doc/api/pipelines.md) but GraphQL's `Time` scalar writes
 * `value.iso8601`, whole seconds (`2021-03-09T14:58:50Z`, app/graphql/types/time_type.rb): the same
 * pipeline state reads `…34.085Z` over REST and `…34.000Z` over GraphQL once normalised. A key
 * shared by readers of either API (PipelineReads) therefore holds whole seconds.
 *
 * Accepted risk: two changes of one pipeline within the same second share a key. PipelineReads
 * keeps only finished pipelines' answers, so at worst a finished pipeline retried within the very
 * second it finished is served its finished answer until its next change.
 */
export function updatedAtKey(iso: string): string {
  const ms = Date.parse(iso);
  // Unreadable text keys as itself: it still equals only itself, as before.
  return Number.isNaN(ms) ? iso : new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString();
}

/**
 * True when two `updated_at` may name the same pipeline state, whichever API each came from: at
 * whole seconds when either has no milliseconds (it may be GraphQL's), exactly when both have
 * them (both REST's), so REST keeps telling apart two changes within one second.
 */
export function sameUpdatedAt(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  if (x % 1000 !== 0 && y % 1000 !== 0) return x === y;
  return updatedAtKey(a) === updatedAtKey(b);
}
