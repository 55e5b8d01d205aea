// `pipeline-summary mcp` as an MCP client meets it: the official SDK's Client over stdio
// (StdioClientTransport spawns the esbuild bundle, what ships) against `serve --demo` on port 0.
// What the spec asks (modelcontextprotocol.io/specification, 2025-11-25): tools/list publishes a
// JSON Schema `inputSchema` per tool (server/tools); a failing tool answers a result with
// `isError: true` the model can read, not a protocol error (server/tools, "Error Handling");
// over stdio the server writes nothing but MCP messages to stdout and the client shuts it down by
// closing its stdin (basic/transports/stdio).
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, type CliBundle } from '../oauth/testing/cli-bundle.ts';
import { freePort, tempHome } from '../oauth/testing/fixtures.ts';
import { startDemoService, type DemoService } from '../service/testing/demo-service.ts';

let demo: DemoService;
let bundle: CliBundle;
let home: { home: string; cleanup: () => Promise<void> };
let client: Client;
const clients: Client[] = [];

/** A connected SDK client whose server is `pipeline-summary mcp` with `args` and `env`. */
async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'pipeline-summary-test', version: '1.0.0' });
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundle.pipelineSummary, 'mcp', ...args],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home.home,
        PIPELINE_SUMMARY_HOME: home.home,
        PIPELINE_SUMMARY_SECRET_STORE: 'file',
        ...env,
      },
      stderr: 'pipe',
    }),
  );
  clients.push(c);
  return c;
}

beforeAll(async () => {
  [demo, bundle, home] = await Promise.all([startDemoService(), buildCliBundle(), tempHome()]);
  client = await connect(['--url', demo.url]);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([demo?.close(), bundle?.cleanup(), home?.cleanup()]);
});

/** Calls a tool and returns its one text block and whether it is a tool error. */
async function call(name: string, args: Record<string, unknown>, on = client) {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  expect(block?.type).toBe('text');
  return { text: (block as { text: string }).text, isError: result.isError === true };
}

describe('initialize and tools/list', () => {
  it('introduces itself with tools and instructions', () => {
    expect(client.getServerVersion()).toMatchObject({
      name: 'pipeline-summary',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/^Read-only tools over a Pipeline Summary service/);
  });

  it('lists five tools with JSON-schema inputs; only analyse_job is not read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'list_failures',
      'get_pipeline',
      'get_job_log',
      'analyse_job',
      'group_health',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== 'analyse_job');
    }
    expect(byName.get_pipeline!.inputSchema.required).toEqual(['projectId', 'pipelineId']);
    expect(byName.get_job_log!.inputSchema.required).toEqual(['projectId', 'jobId']);
    expect(byName.get_job_log!.inputSchema.properties!.mode).toMatchObject({
      enum: ['distilled', 'raw'],
    });
    expect(byName.list_failures!.inputSchema.properties!.pageSize).toMatchObject({
      type: 'integer',
      maximum: 25,
    });
    expect(byName.list_failures!.inputSchema.required ?? []).toEqual([]);
  });
});

describe('tools/call against serve --demo', () => {
  it('list_failures: a page of failed pipelines with their failed jobs, filters applied', async () => {
    const page = await call('list_failures', { pageSize: 3 });
    expect(page.isError).toBe(false);
    expect(page.text).toMatch(/^Failed pipelines 1–3 of \d+ \(page 1 of \d+; window 7d, /);
    expect(page.text.match(/^- pipeline \d+ of /gm)).toHaveLength(3);
    const one = await call('list_failures', { projectId: demo.failed.projectId, pageSize: 25 });
    const pipelines = one.text.match(/^- pipeline \d+ of .*$/gm)!;
    expect(pipelines.length).toBeGreaterThan(0);
    for (const line of pipelines) expect(line).toContain(`(project ${demo.failed.projectId})`);
    expect(one.text).toContain(`job ${demo.failed.jobId}`);
    const none = await call('list_failures', { to: '2000-01-01T00:00:00Z' });
    expect(none.text).toMatch(/^No failed pipelines \(window 7d, /);
  });

  it('get_pipeline: the pipeline and its jobs, failed first', async () => {
    const { text, isError } = await call('get_pipeline', {
      projectId: demo.failed.projectId,
      pipelineId: demo.failed.pipelineId,
    });
    expect(isError).toBe(false);
    expect(text).toMatch(new RegExp(`^Pipeline ${demo.failed.pipelineId} of .*: failed\\n`));
    const jobs = text.slice(text.indexOf('\nJobs (')).split('\n').slice(2);
    expect(jobs[0]).toMatch(
      new RegExp(`^✗ \\w+/${demo.failed.name} · job ${demo.failed.jobId} · failed`),
    );
    expect(text).toContain(`✓ `);
  });

  it('get_job_log: distilled by default, and a bounded raw slice whose numbers match', async () => {
    const job = { projectId: demo.failed.projectId, jobId: demo.failed.jobId };
    const distilled = await call('get_job_log', job);
    expect(distilled.isError).toBe(false);
    expect(distilled.text).toMatch(/^Job \d+ .*: failed/);
    // The demo's failure may be a script's or, on a rebuilt commit, a dependency download's.
    expect(distilled.text).toMatch(/\nFailing step: \$ .+ · in (step_script|install_dependencies)/);
    const decisive = [...distilled.text.matchAll(/^ {2}(\d+): (.+)$/gm)];
    expect(decisive.length).toBeGreaterThan(0);
    expect(distilled.text).toMatch(/\nExcerpt \(\d+ of \d+ lines\)\./);

    // A decisive line's number points at the same line of the raw view.
    const [, number, message] = decisive[0]!;
    const raw = await call('get_job_log', {
      ...job,
      projectId: demo.failed.projectPath,
      mode: 'raw',
      startLine: Number(number),
      lines: 5,
    });
    expect(raw.isError).toBe(false);
    const lines = raw.text.split('\n');
    // Five lines, or fewer when the decisive line is among the log's last four.
    const total = Number(/ of (\d+)\./.exec(lines[1]!)?.[1]);
    const last = Math.min(Number(number) + 4, total);
    expect(lines[1]).toMatch(new RegExp(`^Log lines ${number}–${last} of ${total}\\.`));
    expect(lines.slice(2)).toHaveLength(last - Number(number) + 1);
    expect(lines[2]).toMatch(new RegExp(`^${number}\\| `));
    expect(lines[2]).toContain(message!.slice(0, 40));

    // By default the raw view opens a little before the first decisive line of a failed job.
    const around = await call('get_job_log', { ...job, mode: 'raw', lines: 30 });
    const first = Number(around.text.split('\n')[2]!.split('|')[0]);
    expect(first).toBe(Math.max(1, Number(number) - 20));
  });

  it('analyse_job: the explanation of a failed job, by id or by path', async () => {
    const byId = await call('analyse_job', {
      projectId: demo.failed.projectId,
      jobId: demo.failed.jobId,
    });
    expect(byId.isError).toBe(false);
    expect(byId.text).toMatch(new RegExp(`^✗ ${demo.failed.name} failed`));
    expect(byId.text).toMatch(
      /\nAnalysis \(built-in offline analyser[^)]*\):\n\*\*Failing step:\*\*/,
    );
    const byPath = await call('analyse_job', {
      projectId: demo.failed.projectPath,
      jobId: demo.failed.jobId,
    });
    expect(byPath.text).toMatch(/\nAnalysis \(built-in offline analyser, stored /);
  });

  it('group_health: broken default branches and flaky jobs, capped', async () => {
    const { text, isError } = await call('group_health', { limit: 2 });
    expect(isError).toBe(false);
    expect(text).toMatch(
      /^Default branches \(window 7d\): \d+ broken, \d+ passing, \d+ unknown; default-branch success rate [\d.]+% /,
    );
    expect(text).toMatch(/\n(Flaky jobs \(window 7d\), most flakes first:|No flaky jobs)/);
    expect((text.match(/^- BROKEN /gm) ?? []).length).toBeLessThanOrEqual(2);
    expect(
      (text.match(/^- (?!BROKEN)\S+: \d+ flakes in \d+ runs/gm) ?? []).length,
    ).toBeLessThanOrEqual(2);
  });
});

describe('tool errors carry the service’s message', () => {
  it('an unknown pipeline, a job that did not fail, bad arguments', async () => {
    const missing = await call('get_pipeline', { projectId: demo.failed.projectId, pipelineId: 1 });
    expect(missing).toEqual({
      isError: true,
      text: `Pipeline 1 of GitLab project ${demo.failed.projectId} not found (or not visible to this GitLab token)`,
    });
    const passed = await call('analyse_job', {
      projectId: demo.passed.projectId,
      jobId: demo.passed.jobId,
    });
    expect(passed).toEqual({
      isError: true,
      text: `job ${demo.passed.jobId} (${demo.passed.name}) did not fail: its status is success`,
    });
    const tooMany = await call('list_failures', { pageSize: 500 });
    expect(tooMany.isError).toBe(true);
    // The SDK validates arguments against the published schema before the tool runs.
    expect(tooMany.text).toMatch(/Input validation error: .*<=25 at pageSize/);
    const badWindow = await call('group_health', { since: 'a week' });
    expect(badWindow.isError).toBe(true);
    // The service refuses it (400) and says why, in its words.
    expect(await call('list_failures', { from: 'yesterday' })).toEqual({
      isError: true,
      text: "Invalid 'from': must be an ISO 8601 timestamp",
    });
  });

  it('no service: every tool says where it looked and how to start one', async () => {
    const lonely = await connect(['--url', `http://127.0.0.1:${await freePort()}`]);
    const { text, isError } = await call('list_failures', {}, lonely);
    expect(isError).toBe(true);
    expect(text).toMatch(
      /^No Pipeline Summary service answers at http:\/\/127\.0\.0\.1:\d+: start one with 'pipeline-summary serve'$/,
    );
  });

  it('a shared service: the access token from the environment, or an error naming it', async () => {
    const shared = await demo.shared();
    const job = { projectId: demo.failed.projectId, pipelineId: demo.failed.pipelineId };
    const withToken = await connect(['--url', shared.url], {
      PIPELINE_SUMMARY_ACCESS_TOKEN: shared.token,
    });
    expect((await call('get_pipeline', job, withToken)).isError).toBe(false);
    const without = await connect(['--url', shared.url]);
    expect(await call('get_pipeline', job, without)).toEqual({
      isError: true,
      text: `The service at ${shared.url} is shared and needs its access token: set PIPELINE_SUMMARY_ACCESS_TOKEN`,
    });
  });
});

describe('the process', () => {
  it('prints nothing but the protocol and exits 0 when the client closes its stdin', async () => {
    const child = spawn(process.execPath, [bundle.pipelineSummary, 'mcp', '--url', demo.url], {
      env: { PATH: process.env.PATH ?? '', HOME: home.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
  });

  it('--help names the tools and the client snippet', async () => {
    const child = spawn(process.execPath, [bundle.pipelineSummary, 'mcp', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    for (const tool of [
      'list_failures',
      'get_pipeline',
      'get_job_log',
      'analyse_job',
      'group_health',
    ]) {
      expect(stdout).toContain(`  ${tool} `);
    }
    expect(stdout).toContain(
      'claude mcp add --transport stdio pipeline-summary -- pipeline-summary mcp',
    );
  });
});
