// `pipeline-summary explain`, spawned from its esbuild bundle (what ships) against `serve --demo`
// on port 0 (a non-live GitLab simulator), and against the simulator directly (--direct).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { buildCliBundle, runCli, type CliBundle } from '../oauth/testing/cli-bundle.ts';
import { freePort, tempHome } from '../oauth/testing/fixtures.ts';
import { startDemoService, type DemoService } from '../service/testing/demo-service.ts';
import { EXIT_STATUS } from '../errors.ts';
import type { Explanation } from './explain-job.ts';

let demo: DemoService;
let bundle: CliBundle;
let home: string;
let cleanup: () => Promise<void>;
/** A port nothing listens on: the default service URL of these runs, so no real service answers. */
let closedPort: number;

beforeAll(async () => {
  [demo, bundle, closedPort] = await Promise.all([
    startDemoService(),
    buildCliBundle(),
    freePort(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([demo?.close(), bundle?.cleanup()]);
});
beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
});
afterEach(async () => {
  await cleanup();
});

const env = (extra: Record<string, string> = {}) => ({
  PIPELINE_SUMMARY_HOME: home,
  PIPELINE_SUMMARY_SECRET_STORE: 'file',
  PORT: String(closedPort),
  ...extra,
});
const explain = (args: string[], extra: Record<string, string> = {}) =>
  runCli(bundle.pipelineSummary, ['explain', ...args], { env: env(extra) });
const viaService = (args: string[], extra: Record<string, string> = {}) =>
  explain([...args, '--url', demo.url], extra);
// Ids need the GitLab named (a URL names its own): the simulator, never gitlab.com.
const direct = (args: string[]) =>
  explain([...args, '--direct', '--gitlab-url', demo.harness.simulator.url], {
    GITLAB_TOKEN: demo.harness.simulator.token,
  });
const ESC = '\x1b[';

describe('explain through the running service', () => {
  it('explains a job given by URL: plain text when piped, no styles, exit 0', async () => {
    const run = await viaService([demo.failed.webUrl]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toMatch(new RegExp(`^✗ ${demo.failed.name} failed`));
    expect(run.stdout).toContain(`job ${demo.failed.jobId} · pipeline ${demo.failed.pipelineId}`);
    // The demo analyses offline: its answer carries the failing step and decisive lines, as
    // Markdown, which piped output prints as written.
    expect(run.stdout).toMatch(
      /\nAnalysis \(built-in offline analyser[^)]*\):\n\*\*Failing step:\*\* `/,
    );
    expect(run.stdout).toContain('**Decisive lines:**\n```text\n');
  });

  it('takes PROJECT JOB_ID by path or numeric id, and --json for scripts', async () => {
    const byPath = await viaService([demo.failed.projectPath, String(demo.failed.jobId), '--json']);
    expect(byPath.code).toBe(0);
    const json = JSON.parse(byPath.stdout) as Explanation;
    expect(json).toMatchObject({
      source: 'service',
      job: {
        id: demo.failed.jobId,
        project_id: demo.failed.projectId,
        pipeline_id: demo.failed.pipelineId,
        status: 'failed',
      },
      analysis: { offline: true },
    });
    // A script's failure or, on a rebuilt commit, a dependency download's (the demo's outside failure).
    expect(json.failing_step?.section).toMatch(/^(step_script|install_dependencies)$/);
    expect(json.failing_step?.command).toEqual(expect.any(String));
    expect(json.decisive_lines.length).toBeGreaterThan(0);
    expect(json.analysis.text).toContain('**Failing step:**');
    // The first run stored the analysis: the second is served from the store.
    const byId = await viaService([
      String(demo.failed.projectId),
      String(demo.failed.jobId),
      '--json',
    ]);
    expect(JSON.parse(byId.stdout)).toMatchObject({ analysis: { cached: true } });
    const forced = await viaService([
      String(demo.failed.projectId),
      String(demo.failed.jobId),
      '--json',
      '--force',
    ]);
    expect(JSON.parse(forced.stdout)).toMatchObject({ analysis: { cached: false } });
  });

  it('uses a shared service with its access token, and says when the token is missing or wrong', async () => {
    const shared = await demo.shared();
    const args = [String(demo.failed.projectId), String(demo.failed.jobId), '--url', shared.url];
    const ok = await explain([...args, '--json'], { PIPELINE_SUMMARY_ACCESS_TOKEN: shared.token });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ source: 'service' });
    const missing = await explain(args);
    expect(missing).toMatchObject({ code: EXIT_STATUS.auth_failed, stdout: '' });
    expect(missing.stderr).toMatch(
      /^pipeline-summary explain: The service at http:\/\/127\.0\.0\.2:\d+ is shared and needs its access token: set PIPELINE_SUMMARY_ACCESS_TOKEN\n$/,
    );
    const wrong = await explain(args, { PIPELINE_SUMMARY_ACCESS_TOKEN: 'not-the-token' });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/refused the access token \(Wrong access token\)/);
  });

  // A real terminal: util-linux `script` runs the command under a pseudo-terminal, so the
  // command sees stdout.isTTY as a user's shell would. Skipped where `script` is missing (macOS's
  // `script` takes other arguments); the renderer's own tests cover the styles either way.
  const haveScript = existsSync('/usr/bin/script') && process.platform === 'linux';
  it.skipIf(!haveScript)('renders the Markdown with styles on a terminal', async () => {
    const command = [process.execPath, bundle.pipelineSummary, 'explain', demo.failed.webUrl]
      .concat(['--url', demo.url])
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const output = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', HOME: home, TERM: 'xterm', ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(output.code).toBe(0);
    // The job's name in bold, the analysis's bold labels and code spans styled, no Markdown marks.
    expect(output.out).toContain(`\x1b[1m${demo.failed.name}\x1b[22m`);
    expect(output.out).toContain('\x1b[1mFailing step:\x1b[22m');
    expect(output.out).toContain(`${ESC}36m`); // code spans in cyan
    expect(output.out).not.toContain('**Failing step:**');
    expect(output.out).not.toContain('```');
    // The progress line went to stderr, which the terminal shows too.
    expect(output.out).toContain(`Analysing ${demo.failed.name}`);
  });
});

describe('explain without a service: GitLab directly', () => {
  it('--direct reads GitLab with the token and analyses offline in-process, storing the analysis', async () => {
    const run = await direct([demo.failed.webUrl, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as Explanation;
    expect(json).toMatchObject({
      source: 'gitlab',
      job: { id: demo.failed.jobId, pipeline_id: demo.failed.pipelineId },
      analysis: { offline: true, cached: false },
    });
    expect(json.decisive_lines.length).toBeGreaterThan(0);
    expect(existsSync(`${home}/analyses.db`)).toBe(true);
    const again = await direct([demo.failed.projectPath, String(demo.failed.jobId), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ analysis: { cached: true } });
  });

  it('falls back to GitLab when no service answers on loopback', async () => {
    const run = await explain([demo.failed.webUrl, '--json'], {
      GITLAB_TOKEN: demo.harness.simulator.token,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ source: 'gitlab' });
  });

  it('asks the loopback service when one answers there (PORT)', async () => {
    const run = await explain([demo.failed.webUrl, '--json'], {
      PORT: new URL(demo.url).port,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ source: 'service' });
  });
});

describe('explain: every failure is one line on stderr and its own exit status', () => {
  const expectFailure = (
    run: { code: number | null; stdout: string; stderr: string },
    status: number,
    message: RegExp,
  ) => {
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toHaveLength(2); // one line and its newline
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(status);
  };

  it('6: not a job URL or PROJECT JOB_ID', async () => {
    expectFailure(
      await viaService(['https://gitlab.example.com/acme/api/-/pipelines/12']),
      6,
      /^pipeline-summary explain: 'https:\/\/gitlab\.example\.com\/acme\/api\/-\/pipelines\/12' is not a GitLab job URL/,
    );
    expectFailure(await viaService(['123']), 6, /job 123 needs its project/);
    expectFailure(await viaService(['acme/api', 'abc']), 6, /'abc' is not a job id/);
    expectFailure(await viaService(['not a project', '12']), 6, /is not a project/);
    expect(EXIT_STATUS.bad_job_ref).toBe(6);
  });

  it('7: an unknown job or project, through the service and directly', async () => {
    const { projectId, projectPath } = demo.failed;
    expectFailure(
      await viaService([String(projectId), '1']),
      7,
      /^pipeline-summary explain: Job 1 of GitLab project \d+ not found/,
    );
    expectFailure(
      await viaService(['acme/no-such-project', '5']),
      7,
      /project 'acme\/no-such-project' is not in the group the service at .* watches/,
    );
    expectFailure(await direct([projectPath, '1']), 7, /Job 1 of GitLab project \d+ not found/);
    expectFailure(
      await direct([`${demo.harness.simulator.url}/acme/no-such-project/-/jobs/5`]),
      7,
      /Project acme\/no-such-project not found/,
    );
  });

  it('8: a job that passed, or has not finished', async () => {
    expectFailure(
      await viaService([demo.passed.webUrl]),
      8,
      new RegExp(
        `job ${demo.passed.jobId} \\(${demo.passed.name}\\) did not fail: its status is success$`,
        'm',
      ),
    );
    const { simulator } = demo.harness;
    const started = simulator.startPipeline(demo.failed.projectId);
    const jobs = (await (
      await fetch(
        `${simulator.url}/api/v4/projects/${started.projectId}/pipelines/${started.pipelineId}/jobs`,
        { headers: { 'private-token': simulator.token } },
      )
    ).json()) as { id: number; status: string }[];
    expectFailure(
      await direct([String(started.projectId), String(jobs[0]!.id)]),
      8,
      /has not finished \((created|pending|running)\): explain it once it has failed/,
    );
  });

  it('4: the named service does not answer; 3: no GitLab token; 1: a bad flag', async () => {
    expectFailure(
      await explain([demo.failed.webUrl, '--url', `http://127.0.0.1:${closedPort}`]),
      4,
      /No Pipeline Summary service answers at http:\/\/127\.0\.0\.1:\d+/,
    );
    expectFailure(
      await explain([demo.failed.webUrl]),
      3,
      /no service answers at http:\/\/127\.0\.0\.1:\d+ and no GitLab token for http:\/\/127\.0\.0\.1:\d+: start 'pipeline-summary serve', set GITLAB_TOKEN or run 'pipeline-summary token set --url/,
    );
    expectFailure(
      await explain([demo.failed.webUrl, '--colour']),
      1,
      /Unknown option '--colour'\. Run 'pipeline-summary explain --help' for the flags\./,
    );
  });

  it('--help prints the usage with examples and the exit statuses', async () => {
    const help = await explain(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pipeline-summary explain <job URL>/);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('8 the job did not fail');
    // The command table lists it.
    expect((await runCli(bundle.pipelineSummary, ['--help'])).stdout).toMatch(
      /\n {2}explain +explain why/,
    );
  });
});
