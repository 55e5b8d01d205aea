import { describe, expect, it } from 'vitest';
import { distillLog } from './log-distiller.ts';
import { lineTemplate } from './green-diff.ts';

describe('what changed since the last green run', () => {
  it('masks run-specific parts so the same step compares equal across runs', () => {
    expect(
      lineTemplate(
        '2022-05-30T09:11:02.8576680Z Downloaded /home/runner/.m2/a/b.jar (12 kB at 3.4 MB/s) sha 3f9a2c1d',
      ),
    ).toBe(
      lineTemplate(
        '2022-06-01T10:00:00.1Z Downloaded /home/runner/.m2/c/d.jar (98 kB at 1.1 MB/s) sha 77b0e9aa',
      ),
    );
  });

  it('drops lines the green run printed too, never error lines, and counts them', () => {
    const green = [
      '$ npm test',
      'Downloaded 12 packages in 3.2s',
      'PASS src/a.test.ts (1.1 s)',
      'Error: retrying fetch (1/3)',
      'done',
    ].join('\n');
    const failed = [
      '$ npm test',
      'Downloaded 14 packages in 2.9s',
      'PASS src/a.test.ts (0.9 s)',
      'Error: retrying fetch (1/3)',
      'FAIL src/b.test.ts',
      '  Expected: 1',
      'done',
    ].join('\n');
    const d = distillLog(failed, { baseline: green });
    expect(d.text).not.toContain('Downloaded 14 packages');
    expect(d.text).not.toContain('PASS src/a.test.ts');
    // An error line stays even when the green run printed it as well.
    expect(d.text).toContain('Error: retrying fetch (1/3)');
    expect(d.text).toContain('FAIL src/b.test.ts');
    expect(d.text).toContain('$ npm test');
    expect(d.sameAsGreen).toBe(3);
    expect(distillLog(failed).sameAsGreen).toBeUndefined();
  });
});
