import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSummaryConfig } from './summary.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ps-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveSummaryConfig', () => {
  it('takes flags over environment over saved settings', () => {
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ group: 'saved/group', since: '3d', gitlabUrl: 'https://saved.example' }),
    );
    expect(resolveSummaryConfig(['--data-dir', dir], {})).toEqual({
      group: 'saved/group',
      since: '3d',
      watchMs: null,
      json: false,
      gitlabUrl: 'https://saved.example',
      demo: false,
    });
    expect(
      resolveSummaryConfig(['--data-dir', dir, '--group', 'flag/group', '--watch', '30s'], {
        GITLAB_GROUP: 'env/group',
        GITLAB_URL: 'https://env.example',
      }),
    ).toMatchObject({
      group: 'flag/group',
      watchMs: 30_000,
      gitlabUrl: 'https://env.example',
    });
  });

  it('rejects bad windows, intervals and flags with a usable message', () => {
    expect(() => resolveSummaryConfig(['--since', '7 days', '--data-dir', dir], {})).toThrow(
      /Invalid since '7 days'/,
    );
    expect(() => resolveSummaryConfig(['--watch', '1s', '--data-dir', dir], {})).toThrow(
      /shortest is 5s/,
    );
    expect(() => resolveSummaryConfig(['--colour'], {})).toThrow(/summary --help/);
    expect(resolveSummaryConfig(['--help'], {})).toBe('help');
  });
});

describe('pipeline-summary summary --demo', () => {
  it('prints a plain table with an overall line when piped, and JSON with --json', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'cli/pipeline-summary.ts', 'summary', '--demo', ...args],
        { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, NO_COLOR: '' } },
      );
    const table = await run([]);
    expect(table.stdout).not.toContain('\x1b[');
    expect(table.stdout).toMatch(/^Pipeline summary · group acme · last 7d/);
    expect(table.stdout).toMatch(/\nOverall · \d+ pipelines · \d+ passed · \d+ failed/);
    expect(table.stdout).toContain('acme/platform/api-gateway');
    const json = JSON.parse((await run(['--json'])).stdout) as { projects: unknown[] };
    expect(json.projects.length).toBeGreaterThan(5);
  }, 60_000);
});
