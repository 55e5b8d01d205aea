import { describe, expect, it } from 'vitest';
import { errorLineIndices } from './error-lines.ts';

// Section markers and the runner's verdict as GitLab writes them:
// https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
const LOG = [
  '\x1b[0KRunning with gitlab-runner 17.5.0 (abc123)',
  'section_start:1700000000:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting "step_script" stage of the job script\x1b[0;m',
  '\x1b[32;1m$ npm test\x1b[0;m',
  'PASS src/a.test.ts',
  'Compiling… 10%\rCompiling… 100%',
  '\x1b[31mnpm ERR! code ELIFECYCLE\x1b[0m',
  'Test Suites: 0 failed, 3 passed',
  'section_end:1700000012:step_script\r\x1b[0K',
  '\x1b[31;1mERROR: Job failed: exit code 1\x1b[0;m',
  '',
].join('\n');

describe('errorLineIndices', () => {
  it('lists the lines the distiller rules call errors, as indices of the raw lines', () => {
    const lines = LOG.split('\n');
    const found = errorLineIndices(LOG);
    expect(found).toContain(8);
    expect(found.map((i) => lines[i])).not.toContain('PASS src/a.test.ts');
    expect(found.every((i) => i >= 5)).toBe(true);
    expect(found[0]).toBe(5);
  });

  it('finds nothing in a clean log', () => {
    expect(errorLineIndices('$ echo hi\nhi\nJob succeeded\n')).toEqual([]);
  });
});
