import { describe, expect, it } from 'vitest';
import {
  applySgr,
  errorRows,
  initiallyCollapsed,
  LogParser,
  parseLog,
  searchLog,
  stripLog,
  visibleLines,
} from './ansi.ts';

const E = '\x1b';
const start = (name: string, ts: number, collapsed = false) =>
  `${E}[0Ksection_start:${ts}:${name}${collapsed ? '[collapsed=true]' : ''}\r${E}[0K`;
const end = (name: string, ts: number) => `${E}[0Ksection_end:${ts}:${name}\r${E}[0K`;

describe('applySgr', () => {
  it('sets basic, bright, 256 and true colours and resets', () => {
    expect(applySgr(null, '31')).toEqual({ fg: 1 });
    expect(applySgr(null, '1;92')).toEqual({ bold: true, fg: 10 });
    expect(applySgr(null, '38;5;196')).toEqual({ fg: 'rgb(255,0,0)' });
    expect(applySgr(null, '48;2;1;2;3')).toEqual({ bg: 'rgb(1,2,3)' });
    expect(applySgr({ fg: 1, bold: true }, '0')).toBeNull();
    expect(applySgr({ fg: 1, bold: true }, '39')).toEqual({ bold: true });
    expect(applySgr({ fg: 1 }, '')).toBeNull();
  });
});

describe('parseLog', () => {
  it('splits coloured text into styled segments and keeps style across lines', () => {
    const log = parseLog(`plain ${E}[31mred\nstill red${E}[0m normal\n`);
    expect(log.lines).toHaveLength(2);
    expect(log.lines[0]!.segments).toEqual([
      { text: 'plain ', style: null },
      { text: 'red', style: { fg: 1 } },
    ]);
    expect(log.lines[1]!.segments).toEqual([
      { text: 'still red', style: { fg: 1 } },
      { text: ' normal', style: null },
    ]);
    expect(log.lines[1]!.text).toBe('still red normal');
  });

  it('keeps only what follows the last carriage return (progress bars)', () => {
    expect(parseLog('10%\r50%\r100%\n').lines[0]!.text).toBe('100%');
  });

  it('builds nested, collapsible sections with durations from the markers', () => {
    const raw =
      `${start('prepare', 100, true)}${E}[36;1mPreparing${E}[0;m\n` +
      `pulling image\n` +
      `${end('prepare', 103)}${start('script', 103)}Running script\n` +
      `${start('npm', 104)}npm ci\n` +
      `added 10 packages\n` +
      `${end('npm', 110)}\n` +
      `${E}[31mERROR: tests failed${E}[0m\n` +
      `${end('script', 120)}\n` +
      `Job failed\n`;
    const log = parseLog(raw);
    expect(log.lines.map((l) => l.text)).toEqual([
      'Preparing',
      'pulling image',
      'Running script',
      'npm ci',
      'added 10 packages',
      'ERROR: tests failed',
      'Job failed',
    ]);
    expect(log.sections.map((s) => [s.name, s.headerLine, s.endLine, s.depth])).toEqual([
      ['prepare', 0, 1, 0],
      ['script', 2, 5, 0],
      ['npm', 3, 4, 1],
    ]);
    expect(log.sections.map((s) => s.durationSeconds)).toEqual([3, 17, 6]);
    expect(log.lines[0]!.headerOf).toBe(0);
    expect(log.lines[4]!.sections).toEqual([1, 2]);
    expect(log.lines[6]!.sections).toEqual([]);

    const collapsed = initiallyCollapsed(log);
    expect([...collapsed]).toEqual([0]);
    expect(visibleLines(log, collapsed)).toEqual([0, 2, 3, 4, 5, 6]);
    expect(visibleLines(log, new Set([1]))).toEqual([0, 1, 2, 6]);
    expect(visibleLines(log, new Set([2]))).toEqual([0, 1, 2, 3, 5, 6]);
  });

  it('extends sections still open at the end of a running job to the last line', () => {
    const log = parseLog(`${start('script', 1)}Running\nstep 1\nstep 2\n`);
    expect(log.sections[0]!.endLine).toBe(2);
    expect(log.sections[0]!.durationSeconds).toBeNull();
  });

  it('gives the same result when fed in arbitrary chunks (following a running job)', () => {
    const raw = `${start('s', 1)}Head\n${E}[33mwarn${E}[0m\nline 3\n${end('s', 5)}\ntail`;
    const parser = new LogParser();
    for (let i = 0; i < raw.length; i += 7) parser.push(raw.slice(i, i + 7));
    expect(parser.result().lines.map((l) => l.text)).toEqual(['Head', 'warn', 'line 3']);
    parser.end();
    expect(parser.result()).toEqual(parseLog(raw));
  });

  it('parses a multi-megabyte log', () => {
    const line = `${E}[32mok${E}[0m test case passed with some padding text here\n`;
    const big = line.repeat(60_000);
    const log = parseLog(big);
    expect(big.length).toBeGreaterThan(3_000_000);
    expect(log.lines).toHaveLength(60_000);
  });
});

describe('searchLog and stripLog', () => {
  it('finds lines case-insensitively on the plain text', () => {
    const log = parseLog(`a\n${E}[31mError${E}[0m: boom\nok\nanother ERROR\n`);
    expect(searchLog(log, 'error')).toEqual([1, 3]);
    expect(searchLog(log, '')).toEqual([]);
  });

  it('strips escapes and markers', () => {
    expect(stripLog(`${start('s', 1)}Head\n${E}[1mbold${E}[0m\n${end('s', 2)}\n`)).toBe(
      'Head\nbold',
    );
  });
});

describe('errorRows', () => {
  it("maps the service's raw error line indices onto parsed lines, markers and all", () => {
    // Raw line 1 is a section start marker with its header; raw line 4 only closes the section.
    const raw = [
      '$ npm ci',
      'section_start:1700000000:test\r\x1b[0KRunning tests',
      'ok 1',
      'Error: expected 2 to be 3',
      'section_end:1700000005:test\r\x1b[0K',
      'ERROR: Job failed: exit code 1',
    ].join('\n');
    const log = parseLog(raw);
    const rows = errorRows(log, [3, 5]);
    expect(rows.map((r) => log.lines[r]!.text)).toEqual([
      'Error: expected 2 to be 3',
      'ERROR: Job failed: exit code 1',
    ]);
  });
});
