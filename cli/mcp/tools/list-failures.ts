import { z } from 'zod';
import type { FailureEntry, FailuresResponse } from '../../../server/group-health/contract.ts';
import { capped, duration, minute, pipelineTool, READ_ONLY } from '../pipeline-tool.ts';

/** Most pipelines one call lists; the service allows 100 a page, a model's context less. */
export const MAX_FAILURES = 25;
const JOBS_PER_PIPELINE = 6;

function failureLines(entry: FailureEntry): string[] {
  const p = entry.pipeline;
  const branch = entry.default_branch ? ' (default branch)' : '';
  const lines = [
    `- pipeline ${p.pipeline_id} of ${entry.project_name} (project ${entry.project_id}) · ${p.ref_label}${branch} · ${p.source} · ${minute(p.created_at)} · ${duration(p.duration)}`,
  ];
  if (p.commit_title !== null) {
    lines.push(
      `  commit ${p.short_sha} "${p.commit_title.slice(0, 120)}"${p.commit_author ? ` by ${p.commit_author}` : ''}`,
    );
  }
  const jobs = capped(entry.failed_jobs, JOBS_PER_PIPELINE, (j) => {
    const notes = [
      j.failure_reason,
      j.allow_failure ? 'allowed to fail' : null,
      j.passed_on_same_commit ? 'passed on the same commit' : j.flaky ? 'flaky job' : null,
    ].filter((n) => n !== null);
    return `${j.name} [${j.stage}] job ${j.job_id}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
  });
  lines.push(`  failed jobs: ${jobs.join('; ')}`);
  if (entry.flaky) lines.push('  likely noise: every blocking failed job is a known flaky job');
  lines.push(`  ${p.web_url}`);
  return lines;
}

/** list_failures: GET /api/pipelines/failures with its filters. */
export const listFailuresTool = pipelineTool({
  name: 'list_failures',
  title: 'List failed pipelines',
  description:
    'Failed pipelines of the GitLab group the Pipeline Summary service watches, newest first, with their failed jobs (id, stage, failure reason, flaky or not). Filter by time window, project, ref, trigger source, user or flakiness. Use the job ids with get_job_log or analyse_job.',
  input: {
    since: z
      .string()
      .regex(/^[1-9][0-9]*[mhdw]$/, { error: 'must be like 30m, 24h, 7d or 2w' })
      .optional()
      .describe("Time window, e.g. '24h' or '7d' (default: the service's window)"),
    projectId: z.number().int().positive().optional().describe('Only this project (numeric id)'),
    ref: z.string().min(1).max(255).optional().describe("Only this branch or tag, e.g. 'main'"),
    source: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("Only pipelines triggered this way: 'push', 'merge_request_event', 'schedule'…"),
    user: z.string().min(1).max(255).optional().describe('Only pipelines of this GitLab username'),
    flaky: z
      .boolean()
      .optional()
      .describe('true: only failures of known flaky jobs; false: only the others'),
    from: z
      .string()
      .max(40)
      .optional()
      .describe('Only pipelines created at or after this ISO 8601 time, e.g. 2026-11-28T09:00:00Z'),
    to: z.string().max(40).optional().describe('Only pipelines created before this ISO 8601 time'),
    page: z.number().int().positive().optional().describe('Page, from 1'),
    pageSize: z
      .number()
      .int()
      .min(1)
      .max(MAX_FAILURES)
      .optional()
      .describe(`Pipelines per page (default 10, at most ${MAX_FAILURES})`),
  },
  annotations: READ_ONLY,
  async run(args, client) {
    const answer = await client.get<FailuresResponse>('/api/pipelines/failures', {
      ...args,
      pageSize: args.pageSize ?? 10,
    });
    const { pagination: page, window } = answer;
    const first = (page.currentPage - 1) * page.pageSize + 1;
    const head =
      answer.failures.length === 0
        ? `No failed pipelines (window ${window.since}, ${minute(window.from)} → ${minute(window.to)}; ${page.totalCount} in total).`
        : `Failed pipelines ${first}–${first + answer.failures.length - 1} of ${page.totalCount} (page ${page.currentPage} of ${page.totalPages}; window ${window.since}, ${minute(window.from)} → ${minute(window.to)}):`;
    return [head, ...answer.failures.flatMap(failureLines)].join('\n');
  },
});
