/**
 * `explain`'s text output: the job, the failing step, the decisive lines and the analysis. On a
 * terminal the analysis's Markdown is drawn with ANSI styles (terminal-markdown.ts); piped, the
 * same sections are printed as plain text with the Markdown as written, which reads and greps
 * well (`--json` is for scripts).
 */
import { describeFailingStep, type Explanation } from './explain-job.ts';
import { renderMarkdown } from './terminal-markdown.ts';

/** How many decisive lines the text shows; `--json` lists them all. */
export const SHOWN_DECISIVE_LINES = 10;

type Paint = (text: string) => string;

const ansi =
  (on: string, off: string): Paint =>
  (text) =>
    `${on}${text}${off}`;
const plain: Paint = (text) => text;

/** Renders an explanation for a terminal (`tty`: ANSI styles and rendered Markdown) or a pipe. */
export function renderExplanation(explanation: Explanation, options: { tty: boolean }): string {
  const { job, analysis } = explanation;
  const tty = options.tty;
  const bold = tty ? ansi('\x1b[1m', '\x1b[22m') : plain;
  const dim = tty ? ansi('\x1b[2m', '\x1b[22m') : plain;
  const red = tty ? ansi('\x1b[31m', '\x1b[39m') : plain;
  const out: string[] = [];

  const reason = job.failure_reason ? ` (${job.failure_reason})` : '';
  const allowed = job.allow_failure ? ', allowed to fail' : '';
  out.push(`${red('✗')} ${bold(job.name)} failed${reason}${allowed} · stage ${job.stage}`);
  out.push(`  job ${job.id} · pipeline ${job.pipeline_id} · ${job.ref}`);
  if (job.web_url) out.push(`  ${dim(job.web_url)}`);
  if (explanation.log.truncated) {
    out.push(
      `  ${dim(`(log read from its last part: ${explanation.log.lines} lines of ${explanation.log.bytes ?? '?'} bytes)`)}`,
    );
  }
  out.push('');

  // The offline analyser's answer opens with the failing step and quotes the decisive lines.
  if (!analysis.offline) {
    const step = explanation.failing_step;
    if (step) out.push(`${bold('Failing step:')} ${describeFailingStep(step)}`, '');
    const lines = explanation.decisive_lines;
    if (lines.length > 0) {
      out.push(bold('Decisive lines:'));
      const width = String(Math.max(...lines.map((l) => l.line))).length;
      for (const l of lines.slice(0, SHOWN_DECISIVE_LINES)) {
        const times = l.occurrences > 1 ? dim(` (×${l.occurrences})`) : '';
        out.push(`  ${dim(String(l.line).padStart(width))}  ${l.text}${times}`);
      }
      if (lines.length > SHOWN_DECISIVE_LINES) {
        out.push(
          dim(`  … and ${lines.length - SHOWN_DECISIVE_LINES} more (--json lists them all)`),
        );
      }
      out.push('');
    }
  }

  const about = [
    analysis.offline ? 'built-in offline analyser' : undefined,
    analysis.cached ? `stored ${analysis.timestamp}` : undefined,
  ].filter((p) => p !== undefined);
  out.push(bold(`Analysis${about.length > 0 ? ` (${about.join(', ')})` : ''}:`));
  const text = analysis.text.replace(/\s+$/, '');
  out.push(tty ? renderMarkdown(text).replace(/\n$/, '') : text);
  return `${out.join('\n')}\n`;
}
