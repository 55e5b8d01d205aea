import { describe, expect, it } from 'vitest';
import { pipelineDetails } from '../../testing/fixtures.ts';
import { defaultJob } from './pipeline-panel.tsx';

describe('the job a pipeline panel opens at', () => {
  it('is the failing job the service names for a failed pipeline', () => {
    expect(defaultJob(pipelineDetails())).toBe(13);
  });

  it('is the running job of a running pipeline, else the last job that ran', () => {
    const green = pipelineDetails({ status: 'success', failing_job_id: null });
    // Job 14 (skipped) never started: the last job that ran is 13.
    expect(defaultJob(green)).toBe(13);
    const running = pipelineDetails({
      status: 'running',
      failing_job_id: null,
      jobs: pipelineDetails().jobs.map((j) =>
        j.id === 12 ? { ...j, status: 'running', finished_at: null } : j,
      ),
    });
    expect(defaultJob(running)).toBe(12);
  });
});
