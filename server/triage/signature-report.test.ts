import { describe, expect, it } from 'vitest';
import type { StoredJobSignature } from '../history/failure-signatures.ts';
import { signatureReport } from './signature-report.ts';

const T0 = Date.UTC(2026, 10, 1);
const MINUTE = 60_000;

/** 120 failures of one error over two projects, listed in a shuffled order; two share a time. */
function rows(): StoredJobSignature[] {
  const out: StoredJobSignature[] = [];
  for (let i = 0; i < 120; i++)
    out.push({
      jobId: 1_000 + i,
      projectId: i % 3 === 0 ? 2 : 1,
      pipelineId: 500 + i,
      jobName: 'build',
      signature: 'compile_error: error TS#',
      sampleLine: `error TS${i}`,
      category: 'compile_error',
      // Jobs 1118 and 1119 failed at the same minute: the higher id is listed first.
      failedAt: T0 + Math.min(i, 118) * MINUTE,
    });
  // A fixed shuffle (multiplication by a unit modulo 120).
  return out.map((_, i) => out[(i * 77) % 120]!);
}

describe('signatureReport', () => {
  it('lists the 50 newest jobs newest first, and the first and last seen, whatever the row order', () => {
    const window = {
      since: '7d',
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 86_400_000).toISOString(),
    };
    const names = new Map([
      [1, 'api'],
      [2, 'web'],
    ]);
    const [signature] = signatureReport(rows(), window, (id) => names.get(id)).signatures;
    expect(signature!.occurrences).toBe(120);
    expect(signature!.jobs.map((j) => j.job_id)).toEqual([
      1_119,
      ...Array.from({ length: 49 }, (_, i) => 1_118 - i),
    ]);
    expect(signature!.sample_line).toBe('error TS119');
    expect(signature!.first_seen).toBe(new Date(T0).toISOString());
    expect(signature!.last_seen).toBe(new Date(T0 + 118 * MINUTE).toISOString());
    expect(signature!.projects).toEqual([
      { project_id: 1, project_name: 'api', occurrences: 80 },
      { project_id: 2, project_name: 'web', occurrences: 40 },
    ]);
  });
});
