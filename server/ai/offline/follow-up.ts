import { describeBreakage } from '../breakage.ts';
import type { DistilledLog } from '../distill/log-distiller.ts';
import { CATEGORY_LABELS, type Diagnosis } from '../findings.ts';
import { greenOnSameCommit, type JobContext } from '../job-context.ts';
import { fence, quote } from '../markdown.ts';
import { diagnose } from './diagnosis.ts';
import { RESOLUTION } from './failure-patterns.ts';
import { describeLocations } from './linked-locations.ts';
import { describeWhatChanged } from './report.ts';
import { remoteChanges, safeAlternative } from './safe-commands.ts';

/** What the offline analyser needs to answer a follow-up question. */
export interface OfflineFollowupInput {
  question: string;
  distilled: DistilledLog;
  context: JobContext | undefined;
  analysis: string;
}

/** The questions the offline analyser answers itself, in words. */
const OFFLINE_QUESTIONS =
  'why it failed, how to fix it, how to reproduce it locally, which file, whether it is flaky, what changed since the last green run, and who broke it and when it last passed';
// "Who broke it and when did it last pass?" and its paraphrases: answered from the job's runs.
const BREAKAGE =
  /\b(?:who (?:broke|caused|introduced|is to blame)|broke (?:it|this|the)|broken (?:by|since)|last (?:green|pass(?:ed|ing)?|success(?:ful)?|worked|good)|(?:start|begin|began|started) (?:to )?fail|since when|first (?:fail|broke|red)|when did (?:it|this|the job) (?:last |first )?(?:pass|work|break|fail))/;
// Requests that need a model: writing or changing code, explaining code the log does not show.
const MODEL_ONLY =
  /\b(?:write|generate|rewrite|refactor|implement|patch for|code for|a diff|pull request|translate|summari[sz]e the (?:code|repo))\b/;

const evidenceText = (d: Diagnosis) => d.evidence.map((e) => e.message).join('\n');

/** Paths (without line numbers) named by the evidence, for "which file". */
function pathsIn(d: Diagnosis): string[] {
  const out: string[] = [];
  for (const e of d.evidence) {
    for (const m of e.message.matchAll(
      /(?:^|[\s'"`(])((?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z]\w{0,5})\b/g,
    )) {
      if (!out.includes(m[1]!) && !/node_modules|site-packages/.test(m[1]!)) out.push(m[1]!);
    }
  }
  return out.slice(0, 6);
}

/** How to run the failing command locally, in the job's image when the log names it. */
function reproduceLocally(
  distilled: DistilledLog,
  d: Diagnosis,
  context: JobContext | undefined,
): string[] {
  const failing = distilled.failingCommand;
  const image = distilled.image ?? context?.image;
  const out: string[] = [];
  // A deploy, push or migration changes what others rely on: propose its read-only equivalent.
  const changes = failing ? remoteChanges(failing) : [];
  const cmd = failing && changes.length > 0 ? safeAlternative(failing) : failing;
  if (changes.length > 0) {
    out.push(
      `The failing command changes ${[...new Set(changes.map((c) => c.target))].join(' and ')}: don't run it from a laptop. Run this read-only equivalent instead, which shows the same failure without changing anything:`,
      '',
    );
  }
  const what = changes.length > 0 ? 'Run it' : 'Run the failing command';
  if (cmd && image) {
    out.push(
      `${what} in the job's image (\`${image}\`) from a clean checkout of the same commit:`,
      '',
      fence(
        `docker run --rm -it -v "$PWD":/src -w /src ${image} sh -c '${cmd.replace(/'/g, "'\\''")}'`,
        'sh',
      ),
    );
  } else if (cmd) {
    out.push(
      `${what} from a clean checkout of the same commit, in the image named by \`image:\` in the job's CI configuration (the log does not name it):`,
      '',
      fence(cmd, 'sh'),
    );
  } else {
    out.push(
      `The log does not show which command failed, so I cannot give you the exact command. The step that failed was ${d.failingStep}; run the job's script lines up to that point, in the job's image, from a clean checkout of the same commit.`,
    );
  }
  out.push(
    '',
    'Use the same tool versions and environment variables as the job (CI/CD variables are not in the log); when it passes locally, compare those first.',
  );
  return out;
}

/** What the job's recent history says about flakiness. */
function historyNote(context: JobContext | undefined): string {
  const prev = context?.previousSuccess;
  if (prev === undefined) return 'I could not look up the job’s earlier runs.';
  if (prev === null)
    return 'No green run of this job was found in recent pipelines of this ref: it has been failing for a while, which is not what flakiness looks like.';
  return describeWhatChanged(context) ?? '';
}

const STOP_WORDS = new Set(
  'the a an is are was were be to of in on for and or but it this that what why how which where when who does did do can could should would will i me my we you your there their with from at by as not no any all log job line lines error errors fail failed failing please show tell explain about anything something mention mentions just'.split(
    ' ',
  ),
);

/**
 * Answers a follow-up question deterministically from the log and the diagnosis: the cause, the
 * fix, where it happened, what changed, whether it is flaky, or the log lines mentioning the
 * question's words.
 */
export function answerOffline(input: OfflineFollowupInput): string {
  const { question, distilled, context } = input;
  const q = question.toLowerCase();
  const d = diagnose(distilled, context);
  const parts: string[] = [];
  const label = CATEGORY_LABELS[d.category].toLowerCase();

  if (BREAKAGE.test(q)) {
    parts.push(
      (context && describeBreakage(context)) ??
        'I could not look up earlier runs of this job, so I cannot say when it last passed or which commit its failures started at. Compare with the last green pipeline of the branch in GitLab.',
    );
  } else if (
    /\b(?:reproduce|repro|locally|local machine|my machine|on my (?:laptop|computer|pc))\b/.test(q)
  ) {
    parts.push(...reproduceLocally(distilled, d, context));
  } else if (/\b(?:flak|intermittent|random|retry|re-run|rerun|transient)/.test(q)) {
    const transient =
      (d.category === 'dependency_network' && !RESOLUTION.test(evidenceText(d))) ||
      d.category === 'timeout';
    parts.push(
      transient
        ? `Possibly: a ${label} is often transient, so retrying the job is a reasonable first step.`
        : greenOnSameCommit(context)
          ? 'Possibly: the same commit passed before, which points at flakiness or the environment rather than the code.'
          : `Probably not: a ${label} like this one usually fails the same way on every run until the cause is fixed.`,
    );
    parts.push('', historyNote(context));
    if (context?.flakeHistory) parts.push('', `Group history: this job ${context.flakeHistory}.`);
  } else if (MODEL_ONLY.test(q)) {
    parts.push(
      'Only a configured AI model can answer that: the built-in analyser does not write or change code, it reads the log with fixed rules.',
      '',
      `What it can say: the job failed at ${d.failingStep} with a ${label}:`,
      '',
      quote(d.evidence.slice(0, 3)),
    );
  } else if (
    /\b(?:fix|solve|resolve|next|should i|what (?:can|do) i|how (?:do|can|to)|workaround|steps?)\b/.test(
      q,
    )
  ) {
    parts.push(`To fix this ${label}:`, ...d.nextSteps.map((s, i) => `${i + 1}. ${s}`));
  } else if (/\b(?:where|which (?:file|line|test)|file|location|line number)\b/.test(q)) {
    const linked = context?.locations?.items.length ? context.locations : undefined;
    parts.push(
      linked
        ? `The failure points at ${describeLocations(linked)}.${d.suggestion ? ` The tool suggests: ${d.suggestion}` : ''} The step that failed was ${d.failingStep}.`
        : d.locations.length > 0
          ? `The failure points at ${d.locations.map((l) => `\`${l}\``).join(', ')}.${d.suggestion ? ` The tool suggests: ${d.suggestion}` : ''} The step that failed was ${d.failingStep}.`
          : pathsIn(d).length > 0
            ? `The error names ${pathsIn(d)
                .map((p) => `\`${p}\``)
                .join(', ')} (no line number). The step that failed was ${d.failingStep}.`
            : `The log names no source location; the step that failed was ${d.failingStep}.`,
      '',
      quote(d.evidence.slice(0, 6)),
    );
  } else if (
    /\b(?:changed?|previous|last (?:green|success)|before|regression|commit|diff)\b/.test(q)
  ) {
    parts.push(
      describeWhatChanged(context) ??
        'I could not look up earlier runs of this job, so I cannot say what changed. Compare this commit with the last green pipeline of the branch.',
    );
  } else if (/\b(?:why|cause|reason|root|what happened|what went wrong|explain|mean)\b/.test(q)) {
    parts.push(
      `The job failed at ${d.failingStep}. The root cause category is **${label}**; the decisive lines are:`,
      '',
      quote(d.evidence.slice(0, 8)),
    );
    const changed = describeWhatChanged(context);
    if (changed) parts.push('', changed);
  } else {
    const words = q.split(/[^a-z0-9_.-]+/).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
    const hits = distilled.text
      .split('\n')
      .filter((line) => words.some((w) => line.toLowerCase().includes(w)))
      .slice(0, 12);
    if (hits.length > 0) {
      parts.push(
        `Lines of the log that mention ${words.map((w) => `“${w}”`).join(', ')}:`,
        '',
        fence(hits.join('\n')),
      );
    } else {
      parts.push(
        `The log does not mention ${words.length > 0 ? words.map((w) => `“${w}”`).join(', ') : 'that'}. What it does show: the job failed at ${d.failingStep} with a ${label}:`,
        '',
        quote(d.evidence.slice(0, 5)),
        '',
        `Only a configured AI model can answer other questions; the built-in analyser answers ${OFFLINE_QUESTIONS}.`,
      );
    }
  }
  parts.push('', '_Answered by the built-in offline analyser from the job log._');
  return parts.join('\n');
}
