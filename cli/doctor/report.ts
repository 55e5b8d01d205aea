/** The doctor's report as people read it (one line a check) and as scripts read it (`--json`). */
import type { CheckResult, DoctorReport } from './check.ts';

const MARKS: Record<CheckResult['status'], string> = { pass: '✓', fail: '✗', skip: '-' };

/** One line a check: `✓ what was found`, `✗ what is wrong — what to do`, `- why it did not run`. */
export function formatReport(report: DoctorReport): string {
  return (
    report.checks
      .map((c) => `${MARKS[c.status]} ${c.summary}${c.fix ? ` — ${c.fix}` : ''}`)
      .join('\n') + '\n'
  );
}

/** `{ok, checks: [{id, status, summary, fix?}]}` as pretty JSON. */
export function formatReportJson(report: DoctorReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}
