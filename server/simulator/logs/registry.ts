import type { FailureKind, ToolKind } from '../model.ts';
import { JUNIT_FORMAT } from '../test-reports/catalog.ts';
import { testRunOf } from '../test-reports/report.ts';
import { testRunFailureLines } from './test-run-text.ts';
import { rngFor, type Rng } from '../random.ts';
import { deployFailures, deployFamily } from './deploy.ts';
import { dockerFamily } from './docker.ts';
import type {
  Command,
  FailureText,
  FailureWriter,
  FailureWriters,
  ToolFamily,
  TraceContext,
} from './family.ts';
import { goFailures, goFamily } from './go.ts';
import { helmFamily } from './helm.ts';
import { linkCheckFamily } from './link-check.ts';
import { mavenFailures, mavenFamily } from './maven.ts';
import { mobileFamily } from './mobile.ts';
import { nodeFailures, nodeFamily } from './node.ts';
import { pythonFailures, pythonFamily } from './python.ts';
import { RED, RESET, YELLOW, words } from './runner-text.ts';
import { rubyFailures, rubyFamily } from './ruby.ts';
import { rustFailures, rustFamily } from './rust.ts';
import { terraformFailures, terraformFamily } from './terraform.ts';

const FAMILIES = [
  nodeFamily,
  goFamily,
  rustFamily,
  pythonFamily,
  rubyFamily,
  mavenFamily,
  terraformFamily,
  helmFamily,
  linkCheckFamily,
  mobileFamily,
  dockerFamily,
  deployFamily,
] as const;

// Compile-time check that every tool has a family: this fails to type-check when one is missing.
type CoveredTool = (typeof FAMILIES)[number]['tools'][number];
const everyToolCovered: [ToolKind] extends [CoveredTool] ? true : never = true;
void everyToolCovered;

const FAMILY_BY_TOOL = new Map<ToolKind, ToolFamily>(
  FAMILIES.flatMap((family: ToolFamily) => family.tools.map((tool) => [tool, family] as const)),
);

function familyOf(tool: ToolKind): ToolFamily {
  return FAMILY_BY_TOOL.get(tool)!;
}

/** Dependency setup commands per tool. */
export function setupFor(tool: ToolKind, ctx: TraceContext, rng: Rng): Command[] {
  return familyOf(tool).setup(tool, ctx, rng);
}

/** The main command and its successful output. */
export function mainFor(tool: ToolKind, ctx: TraceContext, rng: Rng): Command {
  return familyOf(tool).main(tool, ctx, rng);
}

/** Filler lines for long runs: progress, debug logging, or a chatty test suite. */
export function fillerLines(tool: ToolKind, ctx: TraceContext, rng: Rng, count: number): string[] {
  const out: string[] = [];
  const base = Math.floor((ctx.job.startedAt ?? 0) / 1000);
  const ws = words(ctx.project);
  const family = familyOf(tool);
  for (let i = 0; i < count; i++) {
    const ts = new Date((base + Math.floor(i / 8)) * 1000).toISOString();
    const w = ws[i % ws.length]!;
    out.push(
      family.fillerLine?.(tool, { ts, w, i, project: ctx.project.path }, rng) ??
        `    \x1b[2mconsole.log\x1b[22m  [${ts}] ${w}: retrying request ${i} after ${rng.int(10, 500)}ms`,
    );
  }
  return out;
}

/** Failures that come from the runner or the machine rather than from one ecosystem. */
const runnerFailures = {
  lint: (spot) => ({
    early: false,
    exit: 'exit code 1',
    lines: familyOf(spot.tool).lint?.(spot.tool, spot) ?? [
      `${RED}${spot.tool}: ${spot.w}: ${spot.line}:${spot.col} check failed${RESET}`,
    ],
  }),
  'oom-killed': ({ tool, ctx, rng }) => {
    const lines = [...(familyOf(tool).outOfMemory?.(tool, rng) ?? [])];
    lines.push(
      `/usr/bin/bash: line ${rng.int(120, 200)}: ${rng.int(40, 400)} Killed                  ${mainFor(tool, ctx, rngFor(ctx.seed, 'oom-cmd')).cmd}`,
    );
    return { early: false, exit: 'exit code 137', lines };
  },
  timeout: ({ tool, ctx, rng }) => ({
    early: false,
    exit: 'timeout',
    lines: fillerLines(tool, ctx, rng, rng.int(20, 60)).concat([
      `${YELLOW}WARNING: step_script could not run to completion because the timeout was exceeded. For more control over job and script timeouts see: https://docs.gitlab.com/ee/ci/runners/configure_runners.html#set-script-and-after_script-timeouts${RESET}`,
    ]),
  }),
  network: ({ tool, ctx, rng }) => ({
    early: familyOf(tool).downloadsInMain?.(tool) !== true,
    exit: 'exit code 1',
    lines: familyOf(tool).network?.(tool, ctx, rng) ?? [
      `fatal: unable to access 'https://gitlab.acme.example/acme/platform/shared-config.git/': Could not resolve host: gitlab.acme.example`,
      `curl: (6) Could not resolve host: deploy.acme.internal`,
    ],
  }),
  // One registry down for every project at once: the same decisive line in each job's log.
  'registry-outage': ({ rng }) => ({
    early: true,
    exit: 'exit code 1',
    lines: [
      `Pulling base image registry.acme.example/base/node:${rng.pick(['20', '22'])}-alpine ...`,
      `Error response from daemon: Get "https://registry.acme.example/v2/": received unexpected HTTP status: 503 Service Unavailable`,
    ],
  }),
} satisfies FailureWriters;

const FAILURE_WRITERS: Record<FailureKind, FailureWriter> = {
  ...nodeFailures,
  ...goFailures,
  ...rustFailures,
  ...pythonFailures,
  ...rubyFailures,
  ...mavenFailures,
  ...terraformFailures,
  ...deployFailures,
  ...runnerFailures,
};

/** The tail of a failing run: what the tool printed when it failed. */
export function failureFor(
  kind: FailureKind,
  tool: ToolKind,
  ctx: TraceContext,
  rng: Rng,
): FailureText {
  const ws = words(ctx.project);
  // Drawn for every kind, in this order, so each kind's text stays what it was for a given seed.
  const w = rng.pick(ws);
  const line = rng.int(12, 240);
  const col = rng.int(3, 40);
  // A failed test run names the tests its JUnit report marks failed (one source for both).
  const cases = testRunOf(ctx.project, ctx.pipeline, ctx.job);
  const fromReport =
    cases && testRunFailureLines(JUNIT_FORMAT[tool]!, cases, rng, ctx.project.path);
  if (fromReport) return { early: false, exit: 'exit code 1', lines: fromReport };
  return FAILURE_WRITERS[kind]({ tool, ctx, rng, ws, w, line, col });
}
