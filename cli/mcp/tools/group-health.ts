import { z } from 'zod';
import type {
  DefaultBranchesResponse,
  FlakyJobsResponse,
} from '../../../server/group-health/contract.ts';
import { capped, duration, minute, pipelineTool, READ_ONLY } from '../pipeline-tool.ts';

/** Most entries of each list. */
export const MAX_HEALTH_ENTRIES = 25;

/** group_health: GET /api/health/default-branches and /api/health/flaky-jobs. */
export const groupHealthTool = pipelineTool({
  name: 'group_health',
  title: 'Group health',
  description:
    "The group's CI health: which projects' default branches are broken (since when, by which pipeline), and which jobs are flaky (failed, then passed on the same commit), most flakes first.",
  input: {
    since: z
      .string()
      .regex(/^[1-9][0-9]*[mhdw]$/, { error: 'must be like 30m, 24h, 7d or 2w' })
      .optional()
      .describe("Time window, e.g. '7d' (default: the service's window)"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_HEALTH_ENTRIES)
      .optional()
      .describe(`Entries per list (default 10, at most ${MAX_HEALTH_ENTRIES})`),
  },
  annotations: READ_ONLY,
  async run({ since, limit = 10 }, client) {
    const [branches, flaky] = await Promise.all([
      client.get<DefaultBranchesResponse>('/api/health/default-branches', { since }),
      client.get<FlakyJobsResponse>('/api/health/flaky-jobs', { since }),
    ]);
    const broken = branches.projects.filter((p) => p.state === 'broken');
    const rates = branches.success_rates.default_branch;
    const out = [
      `Default branches (window ${branches.window.since}): ${branches.broken} broken, ${branches.passing} passing, ${branches.unknown} unknown; default-branch success rate ${rates.success_rate}% (${rates.successful} passed, ${rates.failed} failed).`,
      ...capped(broken, limit, (p) => {
        const since = p.broken_since;
        const first = since
          ? ` since pipeline ${since.pipeline_id} at ${minute(since.created_at)}${since.commit_title ? ` ("${since.commit_title.slice(0, 80)}"${since.commit_author ? ` by ${since.commit_author}` : ''})` : ''}`
          : '';
        return `- BROKEN ${p.project_path} (project ${p.project_id}, ${p.default_branch})${first}, for ${duration(p.broken_for_seconds)}; ${p.pipelines_since_count} pipelines since; latest ${p.latest?.web_url ?? p.web_url}`;
      }),
      '',
      flaky.jobs.length === 0
        ? `No flaky jobs (window ${flaky.window.since}).`
        : `Flaky jobs (window ${flaky.window.since}), most flakes first:`,
      ...capped(flaky.jobs, limit, (j) => {
        const last = j.last_flake;
        const where = j.projects.map((p) => `${p.project_name} ${p.flakes}×`).join(', ');
        return `- ${j.job_name}: ${j.flakes} flakes in ${j.runs} runs (${j.flake_rate}%) in ${where}; last: job ${last.job_id} of pipeline ${last.pipeline_id} in ${last.project_name} (project ${last.project_id}), ${last.kind}, ${minute(last.at)}`;
      }),
    ];
    return out.join('\n');
  },
});
