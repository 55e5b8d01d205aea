import { describe, expect, it } from 'vitest';
import { matchesTest } from './tests-view.tsx';

describe('the Tests view name filter', () => {
  const t = {
    suite: 'unit-tests',
    classname: 'tests.test_scoring.TestScoring',
    name: 'test_drops_duplicate_events',
  };
  it('matches the name, class or suite in any case, and everything when empty', () => {
    expect(matchesTest(t, 'DUPLICATE')).toBe(true);
    expect(matchesTest(t, 'TestScoring')).toBe(true);
    expect(matchesTest(t, 'unit-')).toBe(true);
    expect(matchesTest(t, '  ')).toBe(true);
    expect(matchesTest(t, 'checkout')).toBe(false);
  });
});
