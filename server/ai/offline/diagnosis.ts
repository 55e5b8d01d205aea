// The built-in analyser's judgement of one failed job: which decisive lines may vote, the
// root-cause category they elect, the lines worth quoting and the files they name.
import { DISK_FULL } from '../distill/rules/families/machine.ts';
import { COVERAGE_MISSED } from '../distill/rules/families/quality-gates.ts';
import type { FailureCategory } from '../distill/rules/rule.ts';
import { stripCiPrefix } from '../distill/ci-prefix.ts';
import { COMMAND_VERDICT, WRAPPER } from '../distill/step-lines.ts';
import type { DecisiveLine, DistilledLog } from '../distill/log-distiller.ts';
import type { Diagnosis } from '../findings.ts';
import type { JobContext } from '../job-context.ts';
import { sameActivity } from './activity.ts';
import { nextStepsFor } from './advice.ts';
import { NETWORK } from './failure-patterns.ts';
import { formatLocation, locationsIn, toolSuggestion } from './locations.ts';

// Kills and runner timeouts explain every error printed before them; generic script errors are
// the weakest evidence.
const WEIGHT: Record<FailureCategory, number> = {
  oom_killed: 3,
  timeout: 1.2,
  permission_auth: 1.5,
  config_yaml: 1.4,
  dependency_network: 1.3,
  compile_error: 1.2,
  test_failure: 1,
  script_error: 0.5,
};
const MAX_EVIDENCE = 12;
// The generic error rule's score (`script/generic-error`, distill/rules/families/script.ts): a script error scored above it names a cause.
const GENERIC_SCORE = 85;

// Lines printed by tests that passed, which may contain alarming words (a test "rejects invalid
// credentials" that passed says nothing about this failure).
const PASSING =
  /(?:^|\s)(?:✓|✔|√)\s|\bPASS(?:ED)?\b(?!.*\bFAIL)|\.\.\. ?ok\b|^ok \d+\b|\[\s*OK\s*\]|\bTEST-(?:PASS|OK|EXPECTED-FAIL)\b|\bTEST-KNOWN-FAIL\b/;
// pytest's `E` lines under a failure are one error: the source line, the caret and the frames
// are its details; the exception or assertion line says what kind of error it is.
const PYTEST_DETAIL = /^\s*E\s{2,}(?!.*(?:Error\b|Exception\b|\bassert|Failed\b|Timeout))/;
// Output of the program under test that a harness prints but does not judge (browser consoles).
const CONSOLE_NOISE =
  /\bJavaScript (?:error|warning):|-CRITICAL \*\*:|\bconsole\.(?:error|warn)\b|^GECKO\(\d+\)/;
// Setup and teardown chatter: package installs, user creation, downloads, warnings, and debconf's
// complaints that an image has no terminal (apt in a container prints them on every install).
const SETUP_NOISE =
  /^(?:>>> |Creating (?:user|group)\b|(?:Installing|Upgrading|Updating|Setting up|Unpacking|Preparing to unpack|Selecting previously|Processing triggers|Downloading|Downloaded|Collecting|Requirement already|Running scriptlet|Cleanup|Cleaning up|Post job cleanup|Removing)\b|Get:\d|\[WARNING\]|WARNING:|warning:|\s*warning\b|debconf: )|\bscriptlet failed\b/i;
// An out-of-memory verdict needs the kill itself (or the runtime dying of memory), not the word.
// Go's `signal: killed` is not enough: os/exec kills a command whose context expired the same way
// (https://pkg.go.dev/os/exec#CommandContext), so a test harness's own deadline reads like it.
const OOM_PROOF =
  /\bKilled(?: process \d+)?\s*$|\bKilled process \d+|\bOOMKilled\b|\boom-kill:|invoked oom-killer|\bexit(?:ed)? (?:with )?(?:code|status):? 137\b|\bSIGKILL\b|\bError 137\b|JavaScript heap out of memory|java\.lang\.OutOfMemoryError|^MemoryError\b|runtime: out of memory|Cannot allocate memory|GC overhead limit exceeded|Killed signal terminated program|std::bad_alloc|Could not reserve enough space for (?:object heap|\d+KB object heap)/;
// The shell reporting a child killed by SIGKILL. Test suites kill their own children on purpose, so
// this proves an OOM only when it is how the job ended.
const SHELL_KILL = /(?:^|: )\s*\d+ Killed {2,}\S/;
const SHELL_KILL_REACH = 20;
// A line of source quoted in a code frame (`> 50 |   await expect(page.getByRole('heading', { name:
// 'Authentication Required' }))`, as Playwright, Jest, Babel and rustc print them): the code's
// words, not an error's.
const CODE_FRAME = /^\s*>?\s*\d+\s*\|/;
// A link checker's list of the links it found broken (awesome_bot's `2. [L0410] 404 https://x`,
// markdown-link-check's `[✖] https://x → Status: 404`): its findings, whose network words (`Failed to
// open TCP connection`) describe the README's links, not the job's network. The checker's verdict
// votes for them (distill/rules/families/quality-gates.ts).
const LINK_FINDING = /^\s*(?:\d+\.\s+(?:\[L\d+\]\s+)?(?:\d{3}\s+)?|\[✖\]\s+)https?:\/\/\S/;
/**
 * Whether a decisive line may vote on the category: wrappers, passing tests and setup do not. A
 * wrapper that names a specific cause (Maven's `Failed to execute goal …: Could not find artifact`,
 * `… (No space left on device)`) is the cause, not only the verdict.
 */
function votes(d: DecisiveLine): boolean {
  const m = d.message;
  if (d.section && /^(?:upload_artifacts|archive_cache|after_script)/.test(d.section)) return false;
  const wrapper =
    WRAPPER.test(m) &&
    d.score <= GENERIC_SCORE &&
    (d.category === undefined || d.category === 'script_error');
  return (
    !wrapper &&
    !CODE_FRAME.test(m) &&
    !LINK_FINDING.test(m) &&
    !PYTEST_DETAIL.test(m) &&
    !PASSING.test(m) &&
    !SETUP_NOISE.test(m) &&
    !CONSOLE_NOISE.test(m)
  );
}

// The lines of a log's failed-command reports, found once per log: strength() runs in sort
// comparators, so scanning the decisive lines there would be quadratic.
const verdictLinesOf = new WeakMap<DistilledLog, number[]>();

function verdictLines(distilled: DistilledLog): number[] {
  let lines = verdictLinesOf.get(distilled);
  if (!lines) {
    lines = distilled.decisive.filter((d) => COMMAND_VERDICT.test(d.message)).map((d) => d.line);
    verdictLinesOf.set(distilled, lines);
  }
  return lines;
}

/**
 * How much a line's position says about the failure: lines near the step that failed (or the end
 * of the log), and in the section that failed, are nearer the failing command than setup output.
 */
function nearness(d: DecisiveLine, distilled: DistilledLog): number {
  // Where the job failed: the CI system's failed-command report that closes this line's command,
  // else the end of the log.
  const end = verdictLines(distilled).find((line) => line >= d.line) ?? distilled.totalLines;
  const pos = end > 0 ? Math.min(1, d.line / end) : 1;
  const fromEnd = Math.max(0, end - d.line);
  const s = distilled.failingSection;
  const inFailing = s !== undefined && d.line >= s.startLine && d.line <= s.endLine;
  return (0.5 + pos + (fromEnd < 150 ? 0.5 : 0)) * (inFailing ? 1.3 : 1);
}

function strength(d: DecisiveLine, distilled: DistilledLog): number {
  return d.category ? d.score * WEIGHT[d.category] * nearness(d, distilled) : 0;
}

// A test run's own verdict that tests failed (a count, `FAILED`, `FAILURES!`, a missed coverage
// threshold): the lines before it belong to a failing run even when a later run passes.
const FAILING_RUN = new RegExp(
  `\\b[1-9]\\d* (?:failed|failures?|errors?|failing)\\b|\\bFAILED\\b|\\bFAILURES!|\\bERRORS!|\\bFailed!|\\bTest Run Failed\\b|${COVERAGE_MISSED.source}`,
);

/**
 * The test-failure lines that a later verdict of the same run says passed: assertion-like output
 * of tests that passed (a test that checks an error path logs `Expected: 0 / Actual: 1` and passes)
 * before `Test Run Successful.`. Lines up to a failing run's verdict stay: a later run passing
 * (another module, another target) does not undo an earlier one failing.
 */
function passedAfterwards(voters: DecisiveLine[], passingRuns: number[]): Set<DecisiveLine> {
  const failingVerdicts = voters
    .filter((v) => v.category === 'test_failure' && FAILING_RUN.test(v.message))
    .map((v) => v.line);
  return new Set(
    voters.filter((d) => {
      if (d.category !== 'test_failure') return false;
      const pass = passingRuns.find((line) => line > d.line);
      return pass !== undefined && !failingVerdicts.some((l) => l >= d.line && l < pass);
    }),
  );
}

/**
 * The lines that may vote: not wrappers, passing tests, setup, or test output a later passing run
 * disowns; in a GitHub Actions log only the failing step's lines, when it has any; and when a CI
 * system reports several failed commands, only the lines up to the first of them, unless none is
 * there: what runs after it (more commands, `if: always()` steps) usually follows from it.
 */
function votersOf(distilled: DistilledLog, lines = distilled.decisive): DecisiveLine[] {
  const candidates = lines.filter(votes);
  const passed =
    distilled.passingRuns.length === 0
      ? undefined
      : passedAfterwards(candidates, distilled.passingRuns);
  const voters = passed ? candidates.filter((d) => !passed.has(d)) : candidates;
  const step = distilled.failingStep;
  if (step) {
    const inStep = voters.filter((d) => d.line >= step.startLine && d.line <= step.endLine);
    if (inStep.length > 0) return inStep;
  }
  const [first, second] = verdictLines(distilled);
  if (first === undefined || second === undefined) return voters;
  const before = voters.filter((d) => d.line < first);
  return before.length > 0 ? before : voters;
}

function pickCategory(
  distilled: DistilledLog,
  context: JobContext | undefined,
  voters: DecisiveLine[],
): FailureCategory {
  const reason = context?.failureReason ?? '';
  if (
    /timeout/.test(reason) ||
    // The CI system stopped the job for time: the line rules' `timeout` category says so.
    distilled.decisive.some((d) => d.category === 'timeout' && !PASSING.test(d.message))
  ) {
    return 'timeout';
  }
  if (
    distilled.exitCode === 137 ||
    voters.some(
      (d) =>
        d.category === 'oom_killed' &&
        (OOM_PROOF.test(d.message) ||
          (SHELL_KILL.test(d.message) && distilled.totalLines - d.line <= SHELL_KILL_REACH)),
    )
  ) {
    return 'oom_killed';
  }
  // A full disk: the compiler, test or cache that could not write after it is not the cause.
  if (voters.some((d) => d.category === 'script_error' && DISK_FULL.test(d.message))) {
    return 'script_error';
  }
  // The three strongest lines of each category count (1, ½, ¼): many incidental lines of one
  // kind must not outvote a few decisive ones.
  const byCategory = new Map<FailureCategory, number[]>();
  for (const d of voters) {
    if (!d.category || d.category === 'oom_killed') continue;
    const list = byCategory.get(d.category) ?? [];
    list.push(strength(d, distilled));
    byCategory.set(d.category, list);
  }
  const tally = new Map<FailureCategory, number>();
  for (const [category, list] of byCategory) {
    const top = list.sort((a, b) => b - a).slice(0, 3);
    tally.set(
      category,
      top.reduce((sum, v, i) => sum + v / 2 ** i, 0),
    );
  }
  let best: FailureCategory = 'script_error';
  let bestVote = 0;
  for (const [category, vote] of tally) {
    // Any specific category beats the generic one, however many generic error lines there are.
    if (category === 'script_error') continue;
    if (vote > bestVote) {
      best = category;
      bestVote = vote;
    }
  }
  if (best === 'test_failure' && testFailedOnNetwork(voters)) return 'dependency_network';
  return best;
}

// How many lines before a failing test's verdict its own output runs.
const TEST_OUTPUT_REACH = 15;
const ASSERTION = /\bassert|AssertionError|\bExpected\b|\bexpected\b.*\b(?:but|got|to)\b/i;

/**
 * Whether a failing test failed because it could not reach the network: a connection, DNS or TLS
 * error in the test's own output, just before its verdict. Fixing the test will not help; the
 * download or service it needs will.
 */
function testFailedOnNetwork(voters: DecisiveLine[]): boolean {
  const verdicts = voters.filter((d) => d.category === 'test_failure');
  // An assertion that compared values is the test's own verdict on what it got.
  const asserted = verdicts.filter((d) => ASSERTION.test(d.message)).map((d) => d.line);
  return voters.some(
    (d) =>
      d.category === 'dependency_network' &&
      NETWORK.test(d.message) &&
      verdicts.some(
        (t) =>
          t.line > d.line &&
          t.line - d.line <= TEST_OUTPUT_REACH &&
          !asserted.some((line) => line >= d.line && line <= t.line + TEST_OUTPUT_REACH),
      ),
  );
}

// npm's fixed text around every error (npm/cli's lib/utils/error-message.js and
// explain-eresolve.js): the blank `npm error` lines, where the debug log and the report went, the
// proxy paragraph and the `--force`/`--legacy-peer-deps` hint. The code, the failed request and the
// conflict (`Found:`, `peer …`) are what to quote.
const NPM_BOILERPLATE =
  /^\s*npm (?:error|ERR!)(?: network)?\s*$|^\s*npm (?:error|ERR!)\s+(?:A complete log of this run can be found in\b|For a full report see:|See \S+ for a full report\.|Fix the upstream dependency conflict, or retry\s*$|this command with --force,? or --legacy-peer-deps\s*$|to accept an incorrect \(and potentially broken\) dependency resolution\.|\/\S+\.(?:log|txt)\s*$|network (?:This is a problem related to network connectivity\.|In most cases you are behind a proxy or have bad network settings\.|If you are behind a proxy, please make sure that the\s*$|'proxy' config is set properly\.))/;

// Quoting them crowds out the cause (Maven prints four around every failure).
const BUILD_TOOL_BOILERPLATE =
  /^\s*(?:\[(?:ERROR|WARNING|INFO)\]\s*)?$|^\s*\[ERROR\]\s*(?:-> )?\[Help \d+\](?:\s+https?:\/\/\S+)?\s*$|To see the full stack trace of the errors, re-run Maven with the -e switch|Re-run Maven using the -X switch|For more information about the errors and possible solutions, please read the following articles|After correcting the problems, you can resume the build with the command|^\s*\* Try:\s*$|^\s*> Run with --(?:stacktrace|info|debug|scan)\b|^\s*> Get more help at https?:|^\s*Run with --(?:stacktrace|info|debug|scan)\b|^\s*Get more help at https?:|^\s*(?:\[\w+\]\s*)?(?:See|For more information,? (?:see|visit)|More info:?|Documentation:)\s+https?:\/\/\S+\s*$|^\s*https?:\/\/\S+\s*$|^\s*run `npm fund` for details\s*$/;
/** Lines never worth quoting: blank, a bare `[ERROR]`, a build tool's standard footer or a help link. */
export const BOILERPLATE = new RegExp(`${BUILD_TOOL_BOILERPLATE.source}|${NPM_BOILERPLATE.source}`);

// The runner's own lines, which are never what the job was doing.
const RUNNER_LINE =
  /^(?:ERROR: Job failed|WARNING: |Cleaning up|Terminate orphan process|\[taskcluster[ :]|Uploading artifacts|Running after_?script|Terminated$|section_(?:start|end):)|execution took longer than|: found \d+ matching artifact files and directories/;
// The excerpt's own folds: near-duplicate errors (`[+N similar lines]`) and repeats (`[×N]`).
const SIMILAR = /\s+\[\+(\d+) similar lines\]$/;
const REPEATED = /\s+\[×(\d+)\]$/;
// A CI system's verdict that time ran out (GitLab, GitHub Actions, Travis CI, Taskcluster): what
// follows it is the CI system's own clean-up.
const STOPPED =
  /execution took longer than|timed? ?out|The operation was canceled|exceeded the maximum time limit|max run time exceeded|No output has been received in the last/i;
const LAST_ACTIVITIES = 3;
// How many of the rules' lines a timeout's last activity follows.
const ACTIVITY_AFTER = 3;

/**
 * What the job was doing when it ran out of time: the last distinct activities before the runner's
 * verdict, each quoted by its last line with a count of the lines it folds (`retrying request N
 * after …ms` from 28 components is one activity; see sameActivity).
 */
function lastActivity(distilled: DistilledLog): DecisiveLine[] {
  const text = distilled.text.split('\n');
  const stop = text.findLastIndex((l) => STOPPED.test(l));
  const before = (stop >= 0 ? text.slice(0, stop) : text).filter((l) => {
    const bare = stripCiPrefix(l);
    return (
      l.trim() !== '' &&
      !RUNNER_LINE.test(bare) &&
      !BOILERPLATE.test(bare) &&
      !PASSING.test(l) &&
      !/^… \[\d+ lines? omitted\] …$/.test(l)
    );
  });
  const out: DecisiveLine[] = [];
  for (let i = before.length - 1; i >= 0 && out.length <= LAST_ACTIVITIES; i--) {
    const raw = before[i]!;
    const count =
      1 +
      Number(SIMILAR.exec(raw)?.[1] ?? 0) +
      Math.max(0, Number(REPEATED.exec(raw)?.[1] ?? 1) - 1);
    const line = raw.replace(SIMILAR, '').replace(REPEATED, '');
    const same = out.find((a) => sameActivity(a.text, line));
    if (same) {
      same.occurrences += count;
      continue;
    }
    if (out.length === LAST_ACTIVITIES) break;
    out.push({
      line: distilled.totalLines - (before.length - i),
      text: line,
      message: line.trim(),
      score: 0,
      category: undefined,
      occurrences: count,
      section: undefined,
    });
  }
  return out.reverse();
}

/**
 * The decisive lines to quote: first the block around the strongest line of the chosen category
 * nearest the failure, then the rest by strength, all without wrappers when there is better.
 */
function pickEvidence(distilled: DistilledLog, category: FailureCategory): DecisiveLine[] {
  const candidates = distilled.decisive.filter(
    (d) =>
      !(d.section && /^(?:upload_artifacts|archive_cache|after_script)/.test(d.section)) &&
      !/^ERROR: Job failed: exit code \d+$/.test(d.message) &&
      !BOILERPLATE.test(d.message),
  );
  if (candidates.length === 0) {
    // No rule fired: what the failing command said last, else the last lines, is the best
    // evidence there is.
    const said = distilled.lastWords.filter((w) => !BOILERPLATE.test(w.message));
    if (said.length > 0) return said;
    return distilled.tail.slice(-5).map((text, i) => ({
      line: distilled.totalLines - 4 + i,
      text,
      message: text,
      score: 0,
      category: undefined,
      occurrences: 1,
      section: undefined,
    }));
  }
  const voters = votersOf(distilled, candidates);
  const pool = voters.length > 0 ? voters : candidates;
  const ofCategory = pool.filter((d) => d.category === category);
  // A specific error: the first of the strongest kind (later ones often follow from it). A
  // generic one: the last, nearest the failure.
  const from = ofCategory.length > 0 ? ofCategory : pool;
  const top = Math.max(...from.map((d) => d.score));
  const strongest = from.filter((d) => d.score === top);
  // (A specific script error such as a full disk is the first of its kind too.)
  const main =
    category === 'script_error' && top <= GENERIC_SCORE ? strongest.at(-1)! : strongest[0]!;
  // The block: the main line, then what follows it (details, causes), then what led up to it.
  const near = candidates.filter(
    (d) => d !== main && Math.abs(d.line - main.line) <= 8 && votes(d),
  );
  // No rule knows this failure: the failing command's own last words say more than the CI
  // system's verdict on it.
  const verdictOnly = main.score <= GENERIC_SCORE && WRAPPER.test(main.message);
  const words = verdictOnly
    ? distilled.lastWords.filter((w) => !candidates.includes(w) && !BOILERPLATE.test(w.message))
    : [];
  const block = [
    ...words,
    main,
    ...near.filter((d) => d.line > main.line),
    ...near.filter((d) => d.line < main.line),
  ];
  const rest = candidates
    .filter((d) => !block.includes(d))
    .sort(
      (a, b) =>
        Number(votes(b)) - Number(votes(a)) ||
        Number(b.category === category) - Number(a.category === category) ||
        strength(b, distilled) - strength(a, distilled) ||
        a.line - b.line,
    );
  return [...block, ...inReadingOrder(rest.slice(0, Math.max(0, MAX_EVIDENCE - block.length)))];
}

// How close quoted lines must be to read as one passage (a conflict's lines, a test's assertion).
const PASSAGE_REACH = 8;

/**
 * Ranked lines regrouped for reading: lines near each other form one passage, read in the log's
 * order (a conflict's `Found:` before its `peer …`); passages keep the rank of their best line.
 */
function inReadingOrder(ranked: DecisiveLine[]): DecisiveLine[] {
  const passages: DecisiveLine[][] = [];
  for (const d of ranked) {
    const near = passages.find((p) => p.some((q) => Math.abs(q.line - d.line) <= PASSAGE_REACH));
    if (near) near.push(d);
    else passages.push([d]);
  }
  return passages.flatMap((p) => p.sort((a, b) => a.line - b.line));
}

// How far from a quoted line the excerpt is read for the location it belongs to (Terraform's `on
// FILE line N` under its `Error:`, a traceback above its exception).
const LOCATION_REACH = 12;

/** The lines of the excerpt around each quoted line, the main line's first. */
function around(text: string[], evidence: DecisiveLine[]): string[][] {
  return evidence
    .map((e) => text.findIndex((l) => l.includes(e.text)))
    .filter((i) => i >= 0)
    .map((i) =>
      text
        .slice(Math.max(0, i - LOCATION_REACH), i + LOCATION_REACH + 1)
        .filter((l) => !PASSING.test(l)),
    );
}

/**
 * The source locations the failure points at: those the quoted lines name, then those in the
 * excerpt around them (the main line's first), then stack frames anywhere in the excerpt; with
 * `quotedOnly`, only those the quoted lines name.
 */
export function failureLocations(
  distilled: DistilledLog,
  evidence: DecisiveLine[],
  quotedOnly = false,
): string[] {
  const text = distilled.text.split('\n');
  const windows = quotedOnly ? [] : around(text, evidence);
  const frames = quotedOnly
    ? []
    : text.filter((l) => /^\s+at |^\s*File "|^\s*--> |^\s+\S+\.\w+:\d+/.test(l));
  const out: string[] = [];
  for (const group of [evidence.map((e) => e.text), ...windows, frames]) {
    for (const l of locationsIn(group)) {
      const ref = formatLocation(l);
      if (!out.includes(ref)) out.push(ref);
    }
  }
  // RSpec's rerun line (`rspec ./spec/x_spec.rb:18 # …`) names the line its example starts at; the
  // backtrace's frame in the same spec file is the expectation that failed: that one comes first.
  for (const e of evidence) {
    const rerun = RSPEC_RERUN.exec(e.text)?.[1];
    const at = rerun === undefined ? -1 : out.indexOf(rerun);
    if (at < 0) continue;
    const file = rerun!.slice(0, rerun!.lastIndexOf(':') + 1);
    const expectation = out.findIndex((l, i) => i > at && l.startsWith(file));
    if (expectation > at) out.splice(at, 0, ...out.splice(expectation, 1));
  }
  return out.slice(0, 8);
}

const RSPEC_RERUN = /^rspec (\S+:\d+) #/;

// Terraform prints each diagnostic in a box (`╷`, `│ Error: …`, `│   on FILE line N`, the expression,
// what is wrong and a suggestion, `╵`): the lines after `Error:` are the message, not decoration.
// A box line, after any prefix a CI system adds (GitHub Actions' timestamps and step names).
const BOX_LINE = /^.{0,200}?│(.*)$/;
const BOX_REACH = 6;

/**
 * The rest of the boxed diagnostic a quoted line opens, up to the next diagnostic or the box's end;
 * blank box lines left out.
 */
function boxContinuation(distilled: DistilledLog, main: DecisiveLine | undefined): DecisiveLine[] {
  if (!main || !BOX_LINE.test(main.text)) return [];
  const text = distilled.text.split('\n');
  const at = text.findIndex((l) => l.includes(main.text));
  const out: DecisiveLine[] = [];
  for (let i = at + 1; at >= 0 && i < text.length && out.length < BOX_REACH; i++) {
    const l = text[i]!;
    const inside = BOX_LINE.exec(l)?.[1];
    if (inside === undefined || /^\s*(?:Error|Warning):/.test(inside)) break;
    if (inside.trim() === '') continue;
    out.push({
      line: main.line + (i - at),
      text: l,
      message: l.trim(),
      score: 0,
      category: undefined,
      occurrences: 1,
      section: main.section,
    });
  }
  return out;
}

/** The offline analyser's finding for one job, from its distilled log. */
export function diagnose(distilled: DistilledLog, context?: JobContext): Diagnosis {
  const voters = votersOf(distilled);
  const category = pickCategory(distilled, context, voters);
  const chosen = pickEvidence(distilled, category);
  const box = boxContinuation(distilled, chosen[0]);
  const picked = [
    ...chosen.slice(0, 1),
    ...box,
    ...chosen.slice(1).filter((c) => !box.some((b) => b.text === c.text)),
  ];
  // A timeout's verdict says only that time ran out; what was running then is the diagnosis. It
  // follows the lines the rules picked first (the ones a reader reads), not before them.
  const activity =
    category === 'timeout'
      ? lastActivity(distilled).filter((a) => !picked.some((p) => sameActivity(p.text, a.text)))
      : [];
  const evidence = [
    ...picked.slice(0, ACTIVITY_AFTER),
    ...activity,
    ...picked.slice(ACTIVITY_AFTER),
  ].slice(0, MAX_EVIDENCE);
  // A timeout stopped whatever ran: the files its log lines name around that are where it was, not
  // where it failed, so only what the quoted activity names is a place to look.
  const locations = failureLocations(distilled, evidence, category === 'timeout');
  const suggestion = toolSuggestion([
    ...evidence.map((e) => e.text),
    ...around(distilled.text.split('\n'), evidence.slice(0, 3)).flat(),
  ]);
  const section = distilled.failingSection;
  const where = section ? ` in the \`${section.name}\` section` : '';
  const job = context
    ? ` of job \`${context.jobName}\`${context.stage ? ` (stage \`${context.stage}\`)` : ''}`
    : '';
  const failingStep = distilled.failingCommand
    ? `\`${distilled.failingCommand}\`${where}${job}`
    : section?.name === 'get_sources'
      ? `fetching the repository (\`get_sources\`)${job}, before any script ran`
      : `the job script${where}${job}`;
  const main = evidence[0];
  return {
    category,
    failingStep,
    evidence,
    locations,
    suggestion,
    nextSteps: nextStepsFor(category, distilled, locations, context),
    signature: main ? `${category}: ${main.text.replace(/\d+/g, '#').slice(0, 160)}` : category,
    generic:
      category === 'script_error' &&
      // CI verdicts (`ERROR: Job failed: exit code 1`) score high but say nothing of the cause.
      !voters.some(
        (v) => v.category === 'script_error' && v.score > GENERIC_SCORE && !WRAPPER.test(v.message),
      ),
  };
}
