import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import {
  distilledCase as log,
  JOB_AFTER_GREEN_RUN as context,
} from '../testing/offline-fixtures.ts';
import { analyseOffline } from './report.ts';

describe('offline analysis report', () => {
  it('writes an analysis naming the failing step, quoting decisive lines and suggesting next steps', () => {
    const text = analyseOffline(log('jest-assertion'), context);
    expect(text).toContain(
      '**Failing step:** `npm test -- --ci --reporters=default` in the `step_script` section of job `test:unit` (stage `test`).',
    );
    expect(text).toContain('**Root cause category:** Test failure.');
    expect(text).toContain('Expected: 90.45');
    expect(text).toContain('Received: 100.5');
    expect(text).toContain('`src/cart/totals.test.ts:43:31`');
    expect(text).toMatch(
      /\*\*What changed:\*\* The last successful run of this job on `main` was job #8990/,
    );
    expect(text).toMatch(/\*\*Next steps:\*\*\n1\. /);
    expect(text).toContain('git log aaaaaaaa..bbbbbbbb');
    // Deterministic: same input, same answer.
    expect(analyseOffline(log('jest-assertion'), context)).toBe(text);
  });

  it('explains a clone failure as an authentication problem before any script ran', () => {
    const text = analyseOffline(log('git-auth-failure'));
    expect(text).toContain('fetching the repository (`get_sources`)');
    expect(text).toContain('Permission or authentication problem');
    expect(text).toContain('fatal: Authentication failed');
  });

  it('says so when the log is empty', () => {
    expect(analyseOffline(distillLog(''))).toMatch(/The job log is empty/);
  });
});
