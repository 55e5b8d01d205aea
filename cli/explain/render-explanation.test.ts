import { describe, expect, it } from 'vitest';
import type { Explanation } from './explain-job.ts';
import { renderExplanation, SHOWN_DECISIVE_LINES } from './render-explanation.ts';
import { renderInline, renderMarkdown } from './terminal-markdown.ts';

const B = (t: string) => `\x1b[1m${t}\x1b[22m`;
const I = (t: string) => `\x1b[3m${t}\x1b[23m`;
const C = (t: string) => `\x1b[36m${t}\x1b[39m`;
const GUTTER = '\x1b[2m  │ \x1b[22m';

describe('renderMarkdown (a terminal)', () => {
  it('styles bold, italics, inline code and links; leaves snake_case and code alone', () => {
    expect(renderInline('**Failing step:** `npm test` in _step_script_')).toBe(
      `${B('Failing step:')} ${C('npm test')} in ${I('step_script')}`,
    );
    expect(renderInline('set `FOO_BAR=**x**` in my_var_name')).toBe(
      `set ${C('FOO_BAR=**x**')} in my_var_name`,
    );
    expect(renderInline('see [the docs](https://docs.gitlab.com/ci/)')).toBe(
      'see the docs (\x1b[4mhttps://docs.gitlab.com/ci/\x1b[24m)',
    );
  });

  it('draws fenced code behind a gutter, lists with bullets and numbers, headings and quotes', () => {
    const text = [
      '## Cause',
      '> Offline fallback: the provider timed out',
      '```text',
      'Error: **not bold** here',
      '```',
      '- one `a`',
      '  * nested',
      '1. first',
      '2) second',
    ].join('\n');
    expect(renderMarkdown(text)).toBe(
      [
        `\x1b[4m${B('Cause')}\x1b[24m`,
        `\x1b[2m  ▌ \x1b[22m${I('Offline fallback: the provider timed out')}`,
        `${GUTTER}${C('Error: **not bold** here')}`,
        `  • one ${C('a')}`,
        '    • nested',
        '  1. first',
        '  2. second',
        '',
      ].join('\n'),
    );
  });

  it('keeps an unclosed fence as code to the end, and plain text as it is', () => {
    expect(renderMarkdown('a plain line\n```\nx')).toBe(`a plain line\n${GUTTER}${C('x')}\n`);
  });
});

const explanation = (over: Partial<Explanation['analysis']> = {}, lines = 3): Explanation => ({
  source: 'service',
  job: {
    id: 7,
    name: 'unit-tests',
    stage: 'test',
    status: 'failed',
    created_at: '2026-11-28T10:00:00.000Z',
    started_at: null,
    finished_at: null,
    duration: 12,
    web_url: 'https://gitlab.example.com/acme/api/-/jobs/7',
    failure_reason: 'script_failure',
    allow_failure: false,
    project_id: 3,
    pipeline_id: 90,
    ref: 'main',
  },
  failing_step: { section: 'step_script', command: 'npm test', exit_code: 1 },
  decisive_lines: Array.from({ length: lines }, (_, i) => ({
    line: 100 + i,
    text: `Error ${i}`,
    occurrences: i === 0 ? 3 : 1,
  })),
  log: { lines: 200, truncated: false, bytes: null },
  analysis: {
    text: '**Cause:** the `expect` failed.\n',
    cached: false,
    timestamp: '2026-11-28T10:01:00.000Z',
    offline: false,
    ...over,
  },
});

describe('renderExplanation', () => {
  it('piped: plain text, the step and decisive lines, the Markdown as written', () => {
    expect(renderExplanation(explanation(), { tty: false })).toBe(
      [
        '✗ unit-tests failed (script_failure) · stage test',
        '  job 7 · pipeline 90 · main',
        '  https://gitlab.example.com/acme/api/-/jobs/7',
        '',
        'Failing step: $ npm test · in step_script · exit code 1',
        '',
        'Decisive lines:',
        '  100  Error 0 (×3)',
        '  101  Error 1',
        '  102  Error 2',
        '',
        'Analysis:',
        '**Cause:** the `expect` failed.',
        '',
      ].join('\n'),
    );
  });

  it('a terminal: styles, and the analysis rendered', () => {
    const out = renderExplanation(explanation(), { tty: true });
    expect(out).toContain(`\x1b[31m✗\x1b[39m ${B('unit-tests')} failed`);
    expect(out).toContain(`${B('Cause:')} the ${C('expect')} failed.`);
    expect(out).not.toContain('**');
  });

  it("leaves the step and lines to the offline analyser's answer, which quotes them", () => {
    const out = renderExplanation(explanation({ offline: true, cached: true }), { tty: false });
    expect(out).not.toContain('Failing step: $ npm test');
    expect(out).not.toContain('Decisive lines:');
    expect(out).toContain(
      '\nAnalysis (built-in offline analyser, stored 2026-11-28T10:01:00.000Z):\n**Cause:**',
    );
  });

  it(`shows ${SHOWN_DECISIVE_LINES} decisive lines and counts the rest`, () => {
    const out = renderExplanation(explanation({}, SHOWN_DECISIVE_LINES + 4), { tty: false });
    expect(out).toContain(
      `  ${100 + SHOWN_DECISIVE_LINES - 1}  Error ${SHOWN_DECISIVE_LINES - 1}\n`,
    );
    expect(out).not.toContain(`Error ${SHOWN_DECISIVE_LINES}\n`);
    expect(out).toContain('  … and 4 more (--json lists them all)\n');
  });
});
