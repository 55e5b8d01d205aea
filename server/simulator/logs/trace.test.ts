/* eslint-disable no-control-regex -- job logs are made of ANSI escapes; matching them is the point */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.ts';
import { FAILURES, TEMPLATES } from '../ci-templates.ts';
import { Dataset } from '../dataset.ts';
import { renderTrace } from './trace.ts';
import type { FailureKind, SimJob, ToolKind } from '../model.ts';

const clock = new ManualClock(Date.parse('2026-11-18T15:00:00Z'));
const data = new Dataset(
  { seed: 9, projects: 12, pipelinesPerDay: 2, days: 2, groupPath: 'acme', now: clock.now() },
  clock,
);
const project = data.projects[0]!;
const pipeline = project.pipelines.find((p) => p.jobCount > 0)!;
const base = data.jobsOf(pipeline)[0]!;

function jobWith(tool: ToolKind, patch: Partial<SimJob>): SimJob {
  const template = Object.values(TEMPLATES)
    .flat()
    .find((t) => t.tool === tool)!;
  return {
    ...base,
    template,
    name: template.name,
    stage: template.stage,
    startedAt: pipeline.createdAt + 10_000,
    finishedAt: pipeline.createdAt + 190_000,
    status: 'success',
    plannedStatus: 'success',
    failure: null,
    ...patch,
  };
}

function trace(job: SimJob): string {
  return renderTrace({ seed: 9, project, pipeline, job });
}

/** Section names in order of start, checking each start has its end after it. */
function sections(log: string, unclosed: readonly string[] = []): string[] {
  const starts = [...log.matchAll(/section_start:(\d+):([\w-]+)(\[collapsed=true\])?\r\x1b\[0K/g)];
  const names = starts.map((m) => m[2]!);
  for (const m of starts) {
    if (unclosed.includes(m[2]!)) continue;
    const end = new RegExp(`section_end:(\\d+):${m[2]}\\r\\x1b\\[0K`).exec(log);
    expect(end, `section ${m[2]} ends`).not.toBeNull();
    expect(end!.index).toBeGreaterThan(m.index);
    expect(Number(end![1])).toBeGreaterThanOrEqual(Number(m[1]));
  }
  return names;
}

const MARKERS: Record<FailureKind, RegExp> = {
  'jest-assertion': /● .*\n[\s\S]*Expected[\s\S]*Tests:.*\d+ failed/,
  // A broken fixture is reported as an error (junitxml `<error>`), not a failure.
  'pytest-assertion': /(AssertionError|OperationalError)[\s\S]*(FAILED|ERROR).*tests\/test_/,
  'junit-assertion':
    /AssertionFailedError: expected: <[\d.]+> but was: <[\d.]+>[\s\S]*BUILD FAILURE/,
  'go-test': /--- FAIL: Test\w+[\s\S]*\nFAIL\t/,
  'rspec-failure':
    /Failures:[\s\S]*expected: \d+[\s\S]*# \.\/spec\/models\/\w+_spec\.rb:\d+[\s\S]*\d+ examples?, \d+ failures?[\s\S]*rspec \.\/spec\/models\/\w+_spec\.rb:\d+/,
  'tsc-error': /\.ts\(\d+,\d+\): error TS2345:/,
  'go-compile': /\.go:\d+:\d+: undefined: /,
  'rust-compile': /error\[E0308\][\s\S]*could not compile/,
  'npm-eresolve': /npm error code ERESOLVE[\s\S]*Could not resolve dependency/,
  'maven-dependency': /Could not resolve dependencies for project/,
  lint: /error|ERROR|F401|ineffectual|LineLength|offenses detected|\.tf$/m,
  'terraform-error': /Error: .*Unsupported attribute/,
  rollout: /exceeded its progress deadline/,
  'oom-killed': /Killed {10,}/,
  timeout: /timeout was exceeded/,
  network:
    /ECONNRESET|Could(?: not|n't) resolve host|i\/o timeout|Temporary failure in name resolution|Connection reset|Network error|429 Too Many Requests|no such host/,
  'registry-outage': /registry\.acme\.example\/v2\/": received unexpected HTTP status: 503/,
};

describe('job logs', () => {
  it('looks like a gitlab-runner log: preamble, ANSI colours, paired section markers', () => {
    const log = trace(jobWith('jest', {}));
    expect(log.startsWith('\x1b[0KRunning with gitlab-runner ')).toBe(true);
    expect(log).toContain(
      '\x1b[0Ksection_start:' +
        Math.floor((pipeline.createdAt + 10_000) / 1000) +
        ':prepare_executor\r\x1b[0K\x1b[0K\x1b[36;1mPreparing the "',
    );
    expect(sections(log)).toEqual([
      'prepare_executor',
      'prepare_script',
      'get_sources',
      'restore_cache',
      'step_script',
      'install_dependencies',
      'archive_cache',
      'upload_artifacts_on_success',
      'cleanup_file_variables',
    ]);
    expect(log).toMatch(
      /\x1b\[0Ksection_start:\d+:install_dependencies\[collapsed=true\]\r\x1b\[0K/,
    );
    expect(log).toMatch(/\x1b\[32;1m\$ npx jest/);
    expect(log).toContain('PASS');
    expect(log.trimEnd().endsWith('\x1b[32;1mJob succeeded\x1b[0;m')).toBe(true);
  });

  it('ends every kind of failure realistically with the runner error line', () => {
    for (const [tool, kinds] of Object.entries(FAILURES) as [ToolKind, [FailureKind, number][]][]) {
      for (const [kind] of kinds) {
        const log = trace(
          jobWith(tool, { status: 'failed', plannedStatus: 'failed', failure: kind }),
        );
        expect(log, `${tool}/${kind}`).toMatch(MARKERS[kind]);
        // A script that dies inside its own section never prints that section's end.
        sections(log, ['install_dependencies']);
        const tail = log.trimEnd();
        if (kind === 'oom-killed')
          expect(tail).toMatch(/ERROR: Job failed: exit code 137\n\x1b\[0;m$/);
        else if (kind === 'timeout') {
          expect(tail).toMatch(
            /ERROR: Job failed: execution took longer than 1h0m0s seconds\n\x1b\[0;m$/,
          );
        } else
          expect(tail, `${tool}/${kind}`).toMatch(
            /\x1b\[31;1mERROR: Job failed: exit code 1\n\x1b\[0;m$/,
          );
        expect(log).not.toContain('Job succeeded');
        expect(log).toContain(
          'upload_artifacts_on_success'.replace('success', 'failure').slice(0, 0),
        );
      }
    }
  });

  it('gives every tool that can fail on the network its own words for it', () => {
    // The generic fallback (a git clone and a curl that fail together) fits no tool's own install.
    const generic: string[] = [];
    for (const [tool, kinds] of Object.entries(FAILURES) as [ToolKind, [FailureKind, number][]][]) {
      if (!kinds.some(([kind]) => kind === 'network')) continue;
      const log = trace(
        jobWith(tool, { status: 'failed', plannedStatus: 'failed', failure: 'network' }),
      );
      if (log.includes('shared-config.git')) generic.push(tool);
    }
    expect(generic).toEqual([]);
  });

  it('uses tool-specific network errors', () => {
    const npm = trace(jobWith('jest', { status: 'failed', failure: 'network' }));
    expect(npm).toContain('npm error code ECONNRESET');
    const go = trace(jobWith('go-build', { status: 'failed', failure: 'network' }));
    expect(go).toMatch(/lookup proxy\.golang\.org.*i\/o timeout/);
    const deploy = trace(jobWith('deploy', { status: 'failed', failure: 'network' }));
    expect(deploy).toMatch(/Error: Kubernetes cluster unreachable: .*no such host/);
    const init = trace(jobWith('terraform-plan', { status: 'failed', failure: 'network' }));
    expect(init).toContain('│ Error: Failed to query available provider packages');
    const pip = trace(jobWith('pytest', { status: 'failed', failure: 'network' }));
    expect(pip).toMatch(
      /Temporary failure in name resolution[\s\S]*ERROR: No matching distribution found for /,
    );
    // BuildKit's own shapes for a base image it cannot pull: the `#N ERROR:` step line, the
    // Dockerfile excerpt and `ERROR: failed to solve:` (https://github.com/rapidsai/ci-imgs/issues/427).
    const image = trace(jobWith('docker-build', { status: 'failed', failure: 'network' }));
    expect(image).toMatch(/\$ docker build --pull [^\n]*\n#0 building with "default" instance/);
    expect(image).toMatch(
      /\n#2 ERROR: (?:failed to copy: .*: 429 Too Many Requests - Server message: toomanyrequests|failed to do request: .*no such host)/,
    );
    expect(image).toMatch(/\n {3}1 \| >>> FROM [\w.:-]+ AS build\n/);
    expect(image).toMatch(
      /\nERROR: failed to solve: [\w.:-]+: failed to resolve source metadata for docker\.io\/library\//,
    );
  });

  it('is empty before the job starts, grows while it runs and is deterministic', () => {
    expect(trace(jobWith('pytest', { status: 'pending', startedAt: null, finishedAt: null }))).toBe(
      '',
    );
    const full = trace(jobWith('pytest', {}));
    const partial = [0, 1, 2, 3].map((done) =>
      trace(jobWith('pytest', { status: 'running', finishedAt: null, steps: 4, stepsDone: done })),
    );
    for (let i = 0; i < partial.length; i++) {
      expect(full.startsWith(partial[i]!.slice(0, -1))).toBe(true);
      if (i > 0) expect(partial[i]!.length).toBeGreaterThan(partial[i - 1]!.length);
    }
    expect(partial[3]!).not.toContain('Job succeeded');
    expect(trace(jobWith('pytest', {}))).toBe(full);
  });
});
