// The demo's failed jobs as a new user meets them: each failure kind's log, read by the built-in
// analyser, must name the cause a reviewer would name, and point at the file when the log does.
import { describe, expect, it } from 'vitest';
import { distillLog } from '../../ai/distill/log-distiller.ts';
import { contextFromJob } from '../../ai/job-context.ts';
import { diagnose } from '../../ai/offline/diagnosis.ts';
import { linkLocations, scopeOfJob } from '../../ai/offline/linked-locations.ts';
import { analyseOffline } from '../../ai/offline/report.ts';
import { ManualClock } from '../../platform/clock.ts';
import { FAILURES, TEMPLATES } from '../ci-templates.ts';
import { Dataset } from '../dataset.ts';
import type { FailureKind, SimJob, ToolKind } from '../model.ts';
import { repositoryTree } from '../repository-tree.ts';
import { Views } from '../views.ts';
import { renderTrace } from './trace.ts';

// What the analysis must call each tool's failure; the exceptions are where no category fits
// better: a Helm rollout that never became ready is a deployment failure (no category of its own),
// and `terraform fmt -check` prints only the names of the unformatted files.
const EXPECTED: Record<FailureKind, string> = {
  'jest-assertion': 'test_failure',
  'pytest-assertion': 'test_failure',
  'junit-assertion': 'test_failure',
  'go-test': 'test_failure',
  'rspec-failure': 'test_failure',
  'tsc-error': 'compile_error',
  'go-compile': 'compile_error',
  'rust-compile': 'compile_error',
  'npm-eresolve': 'dependency_network',
  'maven-dependency': 'dependency_network',
  lint: 'compile_error',
  'terraform-error': 'config_yaml',
  rollout: 'script_error',
  'oom-killed': 'oom_killed',
  timeout: 'timeout',
  network: 'dependency_network',
  'registry-outage': 'dependency_network',
};
const EXCEPTIONS: Partial<Record<`${ToolKind}/${FailureKind}`, string>> = {
  'helm-lint/lint': 'config_yaml',
  'terraform-validate/lint': 'config_yaml',
  'terraform-fmt/lint': 'script_error',
  // A link checker's unreachable links are findings about the documentation, not the job's network.
  'link-check/network': 'test_failure',
  'mkdocs/network': 'test_failure',
};

const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
// The demo's dataset: `serve --demo` starts the simulator with these defaults (index.ts).
const demo = new Dataset(
  { seed: 42, projects: 12, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now: clock.now() },
  clock,
);
const views = new Views(demo, () => 'http://127.0.0.1:4100', 0);

function demoJob(name: string, kind: FailureKind) {
  for (const project of demo.projects) {
    for (const pipeline of project.pipelines) {
      const job = demo.jobsOf(pipeline).find((j) => j.name === name && j.failure === kind);
      if (job?.status === 'failed') {
        const log = renderTrace({ seed: 42, project, pipeline, job });
        const context = contextFromJob(views.job(job, pipeline), project.id, project.name);
        const tree = repositoryTree(demo, project, pipeline.sha);
        const distilled = distillLog(log);
        context.locations = linkLocations(
          diagnose(distilled, context).locations,
          scopeOfJob(context.webUrl, context.commit?.sha),
          {
            kind: 'files',
            paths: new Set(tree.filter((e) => e.type === 'blob').map((e) => e.path)),
            complete: true,
          },
        );
        return { project, pipeline, job, log, analysis: analyseOffline(distilled, context) };
      }
    }
  }
  throw new Error(`the demo has no failed ${name} job failing with ${kind}`);
}

describe('the demo’s failed jobs, read by the offline analyser', () => {
  it('names the right cause for every tool and failure kind', () => {
    const project = demo.projects[0]!;
    const pipeline = project.pipelines.find((p) => p.jobCount > 0)!;
    const base = demo.jobsOf(pipeline)[0]!;
    const wrong: string[] = [];
    for (const template of Object.values(TEMPLATES).flat()) {
      for (const [kind] of FAILURES[template.tool]) {
        const job: SimJob = {
          ...base,
          template,
          name: template.name,
          stage: template.stage,
          status: 'failed',
          plannedStatus: 'failed',
          failure: kind,
        };
        const d = diagnose(distillLog(renderTrace({ seed: 42, project, pipeline, job })));
        const want = EXCEPTIONS[`${template.tool}/${kind}`] ?? EXPECTED[kind];
        if (d.category !== want)
          wrong.push(`${template.name} (${template.tool}/${kind}): ${d.category}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('apply-staging: the Terraform error, its file linked at the line, the suggestion and a read-only repro', () => {
    const { analysis, project, pipeline } = demoJob('apply-staging', 'terraform-error');
    expect(analysis).toContain('**Root cause category:** Configuration / YAML error.');
    expect(analysis).toContain('- GitLab: failure_reason = `script_failure`');
    expect(analysis).toContain('- runner: exit code 1 — the failing command exited non-zero.');
    expect(analysis).toMatch(
      /│ Error: Unsupported attribute\n│ {3}on modules\/[\w-]+\/main\.tf line \d+, in resource "aws_subnet" "private":\n│ {3}\d+: {3}vpc_id {5}= aws_vpc\.main\.idd\n│ This object has no argument, nested block, or exported attribute named "idd"\. Did you mean "id"\?\n```/,
    );
    const where = new RegExp(
      String.raw`\*\*Where:\*\* \[\`(modules/[\w-]+/main\.tf):(\d+)\`\]\(http://127\.0\.0\.1:4100/${project.fullPath}/-/blob/${pipeline.sha}/\1#L\2\)`,
    );
    expect(analysis).toMatch(where);
    expect(analysis).toContain('Did you mean "id"?');
    expect(analysis).toContain('`terraform show plan.cache`');
    // Terraform's own checker, and no other stack's.
    expect(analysis).toContain('`terraform init -backend=false && terraform validate`');
    expect(analysis).not.toMatch(/helm lint|yamllint|docker compose config|CI Lint/);
  });

  it('compile: Maven’s cached miss gets Maven’s own -U, not lock-file advice', () => {
    const { analysis } = demoJob('compile', 'maven-dependency');
    expect(analysis).toContain('This failure was cached in the local repository');
    expect(analysis).toContain('`mvn -U`');
    expect(analysis).not.toMatch(/lock file|Retry the job/);
  });

  it('build: npm’s peer conflict in the log’s order, without npm’s footer', () => {
    const { analysis } = demoJob('build', 'npm-eresolve');
    const quoted = /\*\*Decisive lines:\*\*\n```text\n([\s\S]*?)```/
      .exec(analysis)![1]!
      .split('\n');
    const found = quoted.findIndex((l) => l.startsWith('npm error Found: '));
    const peer = quoted.findIndex((l) => /^npm error peer \S+@"[^"]+" from \S+@\d/.test(l));
    expect(found).toBeGreaterThanOrEqual(0);
    expect(peer).toBeGreaterThan(found);
    expect(
      quoted.filter((l) => /^npm error\s*(?:\(×\d+\))?$|full report|--legacy-peer-deps/.test(l)),
    ).toEqual([]);
  });

  it('e2e-tests: the timeout GitLab states, and what the job was doing when it stopped', () => {
    const { analysis, log } = demoJob('e2e-tests', 'timeout');
    expect(analysis).toContain('**Root cause category:** Timeout.');
    expect(analysis).toContain(
      '- GitLab: failure_reason = `job_execution_timeout` — the script ran longer than the maximum execution time set for the job. The log: `ERROR: Job failed: execution took longer than 1h0m0s seconds`',
    );
    const quoted = /\*\*Decisive lines:\*\*\n```text\n([\s\S]*?)```/.exec(analysis)![1]!;
    // Every component's retries are one activity: one quoted line, the count of them all.
    const retries = log.split('\n').filter((l) => /: retrying request \d+ after/.test(l)).length;
    expect(retries).toBeGreaterThan(20);
    expect(quoted.match(/retrying request/g)).toHaveLength(1);
    expect(quoted).toMatch(
      new RegExp(String.raw`retrying request \d+ after \d+ms   \(×${retries}\)`),
    );
    expect(quoted).not.toMatch(/npm fund/);
    expect(quoted).not.toMatch(/matching artifact files/);
  });

  it('build-image: the docker build step and the base image BuildKit could not pull', () => {
    const { analysis } = demoJob('build-image', 'network');
    expect(analysis).toContain(
      '**Failing step:** `docker build --pull -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA" .`',
    );
    expect(analysis).not.toContain('docker login');
    expect(analysis).toContain('**Root cause category:** Dependency or network problem.');
    expect(analysis).toMatch(
      /ERROR: failed to solve: [\w.:-]+: failed to resolve source metadata for docker\.io\/library\//,
    );
    expect(analysis).not.toMatch(/lock file/);
  });

  it('serves a tree holding the files the logs name, under the folders that hold them', () => {
    const { project, pipeline } = demoJob('apply-staging', 'terraform-error');
    const tree = repositoryTree(demo, project, pipeline.sha);
    const paths = tree.map((e) => `${e.type} ${e.path}`);
    expect(paths).toContain('blob .gitlab-ci.yml');
    expect(paths).toContain('blob main.tf');
    const module = tree.find((e) => /^modules\/[\w-]+\/main\.tf$/.test(e.path))!;
    expect(paths).toContain(`tree ${module.path.split('/').slice(0, 2).join('/')}`);
    expect(paths).toContain('tree modules');
  });
});
