import { z } from 'zod';
import type { JobTraceResponse } from '../../../server/contract.ts';
import { distillLog, stripAnsi } from '../../../server/ai/distill/log-distiller.ts';
import { describeFailingStep, evidenceOf } from '../../explain/explain-job.ts';
import { bounded, capped, pipelineTool, READ_ONLY } from '../pipeline-tool.ts';
import { findJob, JOB_INPUT, jobHeadline } from './job-input.ts';

/** Largest distilled excerpt a call may ask for (characters). */
export const MAX_DISTILLED_CHARS = 20_000;
/** Most raw lines one call returns, and the most characters of each. */
export const MAX_RAW_LINES = 400;
const MAX_LINE_CHARS = 400;
// GitLab's collapsible sections (doc/ci/jobs/job_logs.md, "Custom collapsible sections").
const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?/g;

/**
 * The log as GitLab's page shows it: colours, section markers and carriage-return overwrites
 * resolved, and lines that held only a section's end left out — numbered as the distiller numbers
 * them (server/ai/distill/log-distiller.ts), so a decisive line's number points into this view.
 */
export function visibleLines(raw: string): string[] {
  const lines = stripAnsi(raw).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: string[] = [];
  for (const line of lines) {
    const text = line.replace(SECTION_MARKER, '');
    const shown = text.includes('\r')
      ? (text.split('\r').findLast((part) => part.trim() !== '') ?? '')
      : text;
    if (shown.trim() === '' && line.includes('section_end') && !line.includes('section_start')) {
      continue;
    }
    out.push(shown.trimEnd());
  }
  return out;
}

/** get_job_log: the distilled log (default), or a bounded slice of the raw one. */
export const getJobLogTool = pipelineTool({
  name: 'get_job_log',
  title: "Read a job's log",
  description:
    "A job's log. mode 'distilled' (default): the failing step, the decisive lines with their line numbers and a focused excerpt (errors with context, test summaries, the last lines) within maxChars. mode 'raw': up to `lines` lines of the plain log from startLine (default: around the first error of a failed job, else the end).",
  input: {
    ...JOB_INPUT,
    mode: z.enum(['distilled', 'raw']).optional().describe("'distilled' (default) or 'raw'"),
    maxChars: z
      .number()
      .int()
      .min(1000)
      .max(MAX_DISTILLED_CHARS)
      .optional()
      .describe(`distilled: size of the excerpt in characters (default 8000)`),
    startLine: z.number().int().positive().optional().describe('raw: first line, from 1'),
    lines: z
      .number()
      .int()
      .min(1)
      .max(MAX_RAW_LINES)
      .optional()
      .describe(`raw: how many lines (default 150, at most ${MAX_RAW_LINES})`),
  },
  annotations: READ_ONLY,
  async run(args, client) {
    const { job } = await findJob(client, args);
    const trace = await client.get<JobTraceResponse>('/api/jobtrace', {
      projectId: job.project_id,
      jobId: job.id,
    });
    const cut = trace.truncated
      ? ` The service read only the log's last part (${trace.bytes ?? '?'} bytes in all).`
      : '';
    if (args.mode === 'raw') {
      const lines = visibleLines(trace.trace);
      const count = args.lines ?? 150;
      // Around the first decisive line of a failed job: numbered like this view (see above).
      const firstError =
        args.startLine === undefined && job.status === 'failed'
          ? evidenceOf(distillLog(trace.trace)).decisive_lines[0]?.line
          : undefined;
      const start =
        args.startLine ?? (firstError !== undefined ? firstError - 20 : lines.length - count + 1);
      const from = Math.min(Math.max(1, start), Math.max(1, lines.length));
      const slice = lines.slice(from - 1, from - 1 + count);
      const width = String(from + slice.length).length;
      const body = slice.map((line, i) => {
        const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} …` : line;
        return `${String(from + i).padStart(width)}| ${text}`;
      });
      return [
        jobHeadline(job),
        `Log lines ${from}–${from + slice.length - 1} of ${lines.length}.${cut}`,
        ...body,
      ].join('\n');
    }
    const distilled = distillLog(trace.trace, { budgetChars: args.maxChars ?? 8000 });
    const { failing_step: step, decisive_lines: decisive } = evidenceOf(distilled);
    const out = [jobHeadline(job)];
    if (step) out.push(`Failing step: ${describeFailingStep(step)}`);
    if (decisive.length > 0) {
      out.push(
        'Decisive lines (line numbers as in mode raw):',
        ...capped(decisive, 12, (d) => `  ${d.line}: ${d.text.slice(0, MAX_LINE_CHARS)}`),
      );
    }
    out.push(
      `Excerpt (${distilled.keptLines} of ${distilled.totalLines} lines).${cut}`,
      distilled.text,
    );
    return bounded(out.join('\n'), MAX_DISTILLED_CHARS + 4000);
  },
});
