import { describe, expect, it } from 'vitest';
import { describeFailingStep } from './explain-job.ts';

describe('describeFailingStep', () => {
  it('names what the log told of the step, in the order command, section, exit code', () => {
    expect(describeFailingStep({ command: 'npm test', section: 'step_script', exit_code: 1 })).toBe(
      '$ npm test · in step_script · exit code 1',
    );
    expect(describeFailingStep({ command: null, section: 'after_script', exit_code: 137 })).toBe(
      'in after_script · exit code 137',
    );
    expect(describeFailingStep({ command: 'make', section: null, exit_code: null })).toBe('$ make');
  });
});
