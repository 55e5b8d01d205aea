import { IMAGES } from '../ci-templates.ts';
import { hashSeed, rngFor } from '../random.ts';
import { isCodeFailure } from '../same-commit.ts';
import type { TraceContext } from './family.ts';
import { failureFor, fillerLines, mainFor, setupFor } from './registry.ts';
import {
  CLEAR,
  GREEN,
  RED,
  RESET,
  YELLOW,
  cmdLine,
  sectionEnd,
  sectionStart,
} from './runner-text.ts';

export type { TraceContext } from './family.ts';

interface TraceParts {
  head: string[];
  body: string[];
  tail: string[];
}

/** The whole trace a job writes (or will have written when it finishes). */
function traceParts(ctx: TraceContext): TraceParts {
  const { job, project, pipeline } = ctx;
  const rng = rngFor(ctx.seed, 'trace', job.id);
  const tool = job.template.tool;
  const start = Math.floor((job.startedAt ?? job.createdAt) / 1000);
  // Head and body times depend only on the start and the planned run time, so a running job's
  // log is a prefix of its finished log; only the tail uses the real finish time.
  const k = Math.min(1, job.plannedDurationMs / 40_000);
  const t = (offset: number): number => start + Math.floor(offset * k);
  const bodyEnd = t(30);
  const end = Math.max(bodyEnd + 3, Math.floor((job.finishedAt ?? 0) / 1000));
  const image = IMAGES[tool];
  const runnerNo = (hashSeed(ctx.seed, project.id, 'runner') % 6) + 1;
  const macos = tool === 'xcode';
  const executor = macos ? 'instance' : runnerNo % 3 === 0 ? 'kubernetes' : 'docker';
  const token = rngFor(ctx.seed, 'runner', runnerNo).token(8);
  const digest = rngFor(ctx.seed, 'image', image).hex(64);

  const head = [
    `${CLEAR}Running with gitlab-runner 17.2.1 (9882d9c7)${RESET}`,
    `${CLEAR}  on ${macos ? 'saas-macos-medium-m1' : `acme-${executor}-runner-${runnerNo}`} ${token}, system ID: s_${rngFor(ctx.seed, 'sysid', runnerNo).hex(12)}${RESET}`,
    sectionStart(start, 'prepare_executor', `Preparing the "${executor}" executor`),
    `${CLEAR}Using ${executor === 'kubernetes' ? 'Kubernetes' : 'Docker'} executor with image ${image} ...${RESET}`,
    `${CLEAR}Pulling docker image ${image} ...${RESET}`,
    `${CLEAR}Using docker image sha256:${digest} for ${image} with digest ${image.split(':')[0]}@sha256:${digest.split('').reverse().join('')} ...${RESET}`,
    sectionEnd(t(4), 'prepare_executor'),
    sectionStart(t(4), 'prepare_script', 'Preparing environment'),
    `Running on runner-${token.toLowerCase()}-project-${project.id}-concurrent-${rng.int(0, 3)} via acme-${executor}-runner-${runnerNo}...`,
    sectionEnd(t(6), 'prepare_script'),
    sectionStart(t(6), 'get_sources', 'Getting source from Git repository'),
    `${GREEN}Fetching changes with git depth set to 20...${RESET}`,
    `Initialized empty Git repository in /builds/${project.fullPath}/.git/`,
    `${GREEN}Created fresh repository.${RESET}`,
    `${GREEN}Checking out ${pipeline.sha.slice(0, 8)} as detached HEAD (ref is ${pipeline.ref})...${RESET}`,
    '',
    `${GREEN}Skipping Git submodules setup${RESET}`,
    sectionEnd(t(7), 'get_sources'),
    sectionStart(t(7), 'restore_cache', 'Restoring cache'),
    `${GREEN}Checking cache for ${job.stage}-${pipeline.branch.replace(/[^a-z0-9]+/gi, '-')}-protected...${RESET}`,
    rng.chance(0.8)
      ? `${GREEN}Successfully extracted cache${RESET}`
      : `${YELLOW}WARNING: file does not exist${RESET}                       \n${YELLOW}Failed to extract cache${RESET}`,
    sectionEnd(t(8), 'restore_cache'),
    sectionStart(t(8), 'step_script', 'Executing "step_script" stage of the job script'),
    `${CLEAR}Using docker image sha256:${digest} for ${image} with digest ${image.split(':')[0]}@sha256:${digest.split('').reverse().join('')} ...${RESET}`,
  ];

  const failed =
    job.status === 'failed' || (job.status !== 'success' && job.plannedStatus === 'failed');
  // A code failure prints the same error each time its commit is built (same file, line and
  // message); a network or memory failure differs from run to run.
  const failureSeed =
    job.failure && isCodeFailure(job.failure) ? `${pipeline.sha} ${job.name}` : job.id;
  const failure =
    failed && job.failure
      ? failureFor(job.failure, tool, ctx, rngFor(ctx.seed, 'failure', failureSeed))
      : null;
  const body: string[] = [];
  const setup = setupFor(tool, ctx, rng);
  const early = failure !== null && failure.early && setup.length > 0;
  const collapsed = setup.length > 1;
  if (collapsed)
    body.push(
      `${CLEAR}section_start:${t(9)}:install_dependencies[collapsed=true]\r${CLEAR}Installing dependencies`,
    );
  setup.forEach((c, i) => {
    body.push(cmdLine(c.cmd));
    if (early && i === setup.length - 1) body.push(...failure.lines);
    else body.push(...c.out);
  });
  if (collapsed && !early) body.push(`${CLEAR}section_end:${t(30)}:install_dependencies\r${CLEAR}`);
  if (!early) {
    const main = mainFor(tool, ctx, rng);
    body.push(cmdLine(main.cmd));
    const verbose =
      rng.chance(0.05) &&
      ['jest', 'pytest', 'rspec', 'go-test', 'maven-test', 'gradle'].includes(tool);
    if (verbose) body.push(...fillerLines(tool, ctx, rng, rng.int(2_000, 12_000)));
    if (failure) {
      if (failure.exit === 'exit code 137')
        body.push(...main.out.slice(0, Math.ceil(main.out.length / 2)));
      body.push(...failure.lines);
    } else {
      body.push(...main.out);
    }
  }

  const tail: string[] = [];
  if (!failure && job.coverage !== null) {
    tail.push(`Coverage: ${job.coverage.toFixed(2)}% of statements`);
  }
  tail.push(sectionEnd(end - 3, 'step_script'));
  const artifacts =
    job.template.coverage ||
    job.stage === 'build' ||
    ['jest', 'pytest', 'rspec', 'maven-test'].includes(tool);
  if (!failure) {
    tail.push(sectionStart(end - 3, 'archive_cache', 'Saving cache for successful job'));
    tail.push(
      `${GREEN}Creating cache ${job.stage}-${pipeline.branch.replace(/[^a-z0-9]+/gi, '-')}-protected...${RESET}`,
      `${GREEN}Created cache${RESET}`,
    );
    tail.push(sectionEnd(end - 2, 'archive_cache'));
  }
  if (artifacts) {
    const on = failure ? 'on_failure' : 'on_success';
    tail.push(
      sectionStart(
        end - 2,
        `upload_artifacts_${on}`,
        'Uploading artifacts for ' + (failure ? 'failed' : 'successful') + ' job',
      ),
    );
    tail.push(
      `${GREEN}Uploading artifacts...${RESET}`,
      `${job.stage === 'build' ? 'dist/' : 'junit.xml'}: found ${rng.int(1, 400)} matching artifact files and directories${RESET}`,
      `Uploading artifacts as "${job.stage === 'build' ? 'archive' : 'junit'}" to coordinator... 201 Created${RESET}  id=${job.id} responseStatus=201 Created token=glcbt-64`,
    );
    tail.push(sectionEnd(end - 1, `upload_artifacts_${on}`));
  }
  tail.push(
    sectionStart(
      end - 1,
      'cleanup_file_variables',
      'Cleaning up project directory and file based variables',
    ),
  );
  tail.push(sectionEnd(end, 'cleanup_file_variables'));
  if (!failure) tail.push(`${GREEN}Job succeeded${RESET}`);
  else if (failure.exit === 'timeout')
    tail.push(`${RED}ERROR: Job failed: execution took longer than 1h0m0s seconds`, `${RESET}`);
  else tail.push(`${RED}ERROR: Job failed: ${failure.exit}`, `${RESET}`);
  return { head, body, tail };
}

/**
 * The job's log as GitLab serves it at this moment: empty before it starts, growing while it runs
 * (in step with its live progress), complete once finished. Generated on demand from the seed.
 */
export function renderTrace(ctx: TraceContext): string {
  const { job } = ctx;
  if (job.startedAt === null) return '';
  const parts = traceParts(ctx);
  let lines: string[];
  if (job.status === 'running' || job.status === 'canceling') {
    const fraction = Math.min(0.95, (job.stepsDone + 0.5) / Math.max(1, job.steps));
    lines = [...parts.head, ...parts.body.slice(0, Math.floor(parts.body.length * fraction))];
  } else if (job.status === 'canceled') {
    lines = [...parts.head, ...parts.body.slice(0, Math.floor(parts.body.length / 2))];
  } else {
    lines = [...parts.head, ...parts.body, ...parts.tail];
  }
  return lines.join('\n') + '\n';
}
