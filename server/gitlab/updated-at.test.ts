import { describe, expect, it } from 'vitest';
import { sameUpdatedAt, updatedAtKey } from './updated-at.ts';

// REST writes `updated_at` with milliseconds (doc/api/pipelines.md: `2016-08-11T11:28:34.085Z`);
// GraphQL's `Time` writes `value.iso8601`, whole seconds (gitlabhq app/graphql/types/time_type.rb).
describe('updated_at across GitLab’s REST and GraphQL APIs', () => {
  it('keys both spellings of one state alike, dropping (not rounding) the fraction', () => {
    expect(updatedAtKey('2016-08-11T11:28:34.985Z')).toBe('2016-08-11T11:28:34.000Z');
    expect(updatedAtKey('2016-08-11T11:28:34.000Z')).toBe('2016-08-11T11:28:34.000Z');
    expect(updatedAtKey('2016-08-11T13:28:34+02:00')).toBe('2016-08-11T11:28:34.000Z');
    expect(updatedAtKey('2016-08-11T11:28:35.000Z')).not.toBe(
      updatedAtKey('2016-08-11T11:28:34.999Z'),
    );
    expect(updatedAtKey('')).toBe('');
  });

  it('matches a GraphQL value to the REST one of the same second, and two REST values exactly', () => {
    expect(sameUpdatedAt('2016-08-11T11:28:34.000Z', '2016-08-11T11:28:34.085Z')).toBe(true);
    expect(sameUpdatedAt('2016-08-11T11:28:34.085Z', '2016-08-11T11:28:34.000Z')).toBe(true);
    expect(sameUpdatedAt('2016-08-11T11:28:34.085Z', '2016-08-11T11:28:34.085Z')).toBe(true);
    // Both with milliseconds: both REST's, so two changes within one second stay apart.
    expect(sameUpdatedAt('2016-08-11T11:28:34.085Z', '2016-08-11T11:28:34.600Z')).toBe(false);
    expect(sameUpdatedAt('2016-08-11T11:28:33.000Z', '2016-08-11T11:28:34.085Z')).toBe(false);
    expect(sameUpdatedAt(null, '2016-08-11T11:28:34.000Z')).toBe(false);
    expect(sameUpdatedAt(undefined, undefined)).toBe(true);
    expect(sameUpdatedAt('', '2016-08-11T11:28:34.000Z')).toBe(false);
  });
});
