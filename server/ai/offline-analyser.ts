import type { DecisiveLine, DistilledLog } from './distill/log-distiller.ts';
import { COMMAND_VERDICT, DISK_FULL, WRAPPER, type FailureCategory } from './distill/line-rules.ts';
import { CATEGORY_LABELS, type Diagnosis } from './findings.ts';
import { greenOnSameCommit, type JobContext } from './job-context.ts';
import { quote } from './markdown.ts';

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
const LOCATION =
  /(?:^|[\s(['"`])((?:[\w@.-]+\/)*[\w@.-]+\.(?:tsx?|jsx?|mjs|cjs|py|go|rs|java|kt|scala|rb|cs|cpp|cc|c|h|hpp|php|ya?ml|tf|json|toml|gradle|xml|sh|Dockerfile))(?:[:(\s[]+(?:line\s+)?\[?(\d+))/g;
const MAX_EVIDENCE = 12;
// The generic error rule's score (line-rules.ts): a script error scored above it names a cause.
const GENERIC_SCORE = 85;
// A registry or mirror that could not be reached, as opposed to a version that cannot be resolved.
const NETWORK =
  /ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|Could not resolve host|Temporary failure (?:in name|resolving)|Name or service not known|i\/o timeout|Connection (?:refused|reset)|Connect(?:ion)? timeout|\b50[234]\b|TLS handshake|SSL connect error|socket hang up|unreachable|Failed to connect|Read timed out/i;
/** A version or package that cannot be resolved (not a network failure). */
export const RESOLUTION =
  /\bERESOLVE\b|peer dep|nothing provides|No match for argument|version solving failed|No matching (?:version|distribution)|could not find a version|ResolutionImpossible|unsatisfiable|conflicting (?:peer )?dependenc|unresolvable/i;

// Lines printed by tests that passed, which may contain alarming words (a test "rejects invalid
// credentials" that passed says nothing about this failure).
const PASSING =
  /(?:^|\s)(?:✓|✔|√)\s|\bPASS(?:ED)?\b(?!.*\bFAIL)|\.\.\. ?ok\b|^ok \d+\b|\[\s*OK\s*\]|\bTEST-(?:PASS|OK|EXPECTED-FAIL)\b|\bTEST-KNOWN-FAIL\b/;
// pytest's `E` lines under a failure are one error: the source line, the caret and the frames
// are its details; the exception or assertion line says what kind of error it is.
const PYTEST_DETAIL = /^\s*E\s{2,}(?!.*(?:Error\b|Exception\b|\bassert|Failed\b|Timeout))/;
// Setup and teardown chatter: package installs, user creation, downloads, warnings, and debconf's
// complaints that an image has no terminal (apt in a container prints them on every install).
// Output of the program under test that a harness prints but does not judge (browser consoles).
const CONSOLE_NOISE =
  /\bJavaScript (?:error|warning):|-CRITICAL \*\*:|\bconsole\.(?:error|warn)\b|^GECKO\(\d+\)/;
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
// votes for them (line-rules.ts).
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

// A coverage threshold the run missed (Jest, coverage.py, pytest-cov, nyc/c8): the run's own
// failing verdict, though the runner prints it before `Tests: 12 passed` or `=== 75 passed ===`.
const COVERAGE_MISSED =
  /\bcoverage threshold for \w+ \([\d.]+%\) not met\b|\bis less than fail-under=|\bRequired test coverage of [\d.]+% not reached\b|\bdoes not meet (?:global |"[^"]*" )?threshold\b/;
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

/**
 * The decisive lines to quote: first the block around the strongest line of the chosen category
 * nearest the failure, then the rest by strength, all without wrappers when there is better.
 */
function pickEvidence(distilled: DistilledLog, category: FailureCategory): DecisiveLine[] {
  const candidates = distilled.decisive.filter(
    (d) =>
      !(d.section && /^(?:upload_artifacts|archive_cache|after_script)/.test(d.section)) &&
      !/^ERROR: Job failed: exit code \d+$/.test(d.message),
  );
  if (candidates.length === 0) {
    // No rule fired: what the failing command said last, else the last lines, is the best
    // evidence there is.
    if (distilled.lastWords.length > 0) return distilled.lastWords;
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
  const words = verdictOnly ? distilled.lastWords.filter((w) => !candidates.includes(w)) : [];
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
  return [...block, ...rest].slice(0, MAX_EVIDENCE);
}

/** `file:line` references in lines, deduplicated, in order. */
export function findLocations(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    LOCATION.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = LOCATION.exec(line)) !== null) {
      const ref = `${m[1]}:${m[2]}`;
      if (!out.includes(ref) && !/node_modules|site-packages|\/usr\/lib/.test(ref)) out.push(ref);
    }
  }
  return out.slice(0, 8);
}

function tool(distilled: DistilledLog): string {
  const cmd = distilled.failingCommand ?? '';
  const text = distilled.decisive.map((d) => d.text).join('\n');
  if (/\bjest\b|npm (?:run )?test|vitest/.test(cmd) || /● /.test(text)) return 'jest';
  if (/pytest/.test(cmd + text)) return 'pytest';
  if (/\bgo (?:test|build|vet|mod)/.test(cmd)) return 'go';
  if (/\bmvn\b|\[ERROR\]/.test(cmd + text)) return 'maven';
  if (/gradlew?\b/.test(cmd) || /FAILURE: Build failed/.test(text)) return 'gradle';
  if (/\bcargo\b/.test(cmd)) return 'cargo';
  if (/\bdocker\b/.test(cmd)) return 'docker';
  if (/\bnpm\b|\bnpx\b|\byarn\b|\bpnpm\b/.test(cmd)) return 'npm';
  if (/\bpip\b|python/.test(cmd)) return 'python';
  if (/terraform/.test(cmd)) return 'terraform';
  if (/\bhelm\b/.test(cmd)) return 'helm';
  return '';
}

/**
 * Advice for failures the line rules recognise precisely (gates, deploy tools), in the tools' own
 * terms; `instead` when the category's general advice would mislead (a coverage gate is not a
 * failing test to rerun).
 */
const SPECIFIC_ADVICE: {
  category: FailureCategory;
  when: RegExp;
  steps: string[];
  instead?: boolean;
  /** Add the "reproduce it locally" step after these. */
  reproduce?: boolean;
}[] = [
  {
    category: 'test_failure',
    when: new RegExp(
      `${COVERAGE_MISSED.source}|Rule violated for (?:bundle|package|class)|Coverage checks have not been met|line coverage is below the specified`,
    ),
    steps: [
      'The tests passed, but coverage is below the threshold the project set: open the coverage report for the files this change touched and add tests for the uncovered lines, or lower the threshold in the same change and say why.',
    ],
    instead: true,
  },
  {
    category: 'compile_error',
    when: /QUALITY GATE STATUS: FAILED|Quality Gate has FAILED|quality gate failure/i,
    steps: [
      'The quality gate failed: open the dashboard link above; the failed conditions are usually coverage or new issues on new code, and the gate names which.',
    ],
    instead: true,
  },
  {
    category: 'compile_error',
    when: /vulnerabilit(?:y|ies) found|Vulnerability found in|# npm audit report|Total: \d+ \(.*CRITICAL: |Your code is affected by \d+ vulnerabilit|error\[(?:vulnerability|unsound|unmaintained|yanked)\]/i,
    steps: [
      'A dependency audit found known vulnerabilities: upgrade the packages named above to the fixed versions (`npm audit fix`, a newer base image, `cargo update -p <crate>`), or record an accepted exception with its reason in the scanner’s ignore file.',
    ],
    instead: true,
  },
  {
    category: 'compile_error',
    when: /exceeded maximum budget|(?:asset|entrypoint) size limit/,
    steps: [
      'A bundle is over its size budget: split or lazy-load the code this change added, or raise the budget in the same change and say why.',
    ],
    instead: true,
  },
  {
    category: 'script_error',
    when: /Error acquiring the state lock/,
    steps: [
      'Another Terraform run holds the state lock, or a cancelled one left it: wait for the other run, then `terraform force-unlock <lock id>` (the id is in the lock info above) only once no run is active.',
    ],
  },
  {
    category: 'script_error',
    when: /another operation \(install\/upgrade\/rollback\) is in progress/,
    steps: [
      'The Helm release is stuck in a pending state from an interrupted deploy: `helm history <release>` shows it; `helm rollback <release> <last deployed revision>` frees it.',
    ],
  },
  {
    category: 'script_error',
    when: /exceeded its progress deadline/,
    steps: [
      'The new pods never became ready: `kubectl describe` and `kubectl logs` of the new ReplicaSet’s pods show why (a crash loop, a failing readiness probe, an image that cannot be pulled).',
    ],
  },
  {
    category: 'permission_auth',
    when: /is forbidden: User "[^"]*" cannot |PERMISSION_DENIED|does not have authorization to perform action|\(AuthorizationFailed\)/,
    steps: [
      'The identity the job deploys as is missing the permission named above: grant that role or permission to the service account (Kubernetes RBAC, the cloud IAM role), scoped to what the job needs.',
    ],
  },
  {
    category: 'dependency_network',
    when: /Can't reach database server|connection to server at .* failed/,
    steps: [
      'The build itself connects to a database (prerendering pages, running migrations or generating data), and the builder cannot reach it: the database is private to your network, paused, or its address in the build environment is wrong.',
      'Either keep the database out of the build (render those pages at request time, run migrations in a deploy step) or let the builder reach it: the connection string set for the build environment, and the database’s allow list.',
    ],
    instead: true,
  },
  {
    category: 'dependency_network',
    when: /ImportError: cannot import name .*(?:site|dist)-packages\//,
    steps: [
      'An installed package no longer has what the code imports: a dependency that is not pinned was upgraded to a release that removed or moved it.',
      'Pin that package (or the one that imports it) to the last version that works, in requirements or a constraints/lock file, so the build stops drifting; or update the code to the new API.',
    ],
    instead: true,
    reproduce: true,
  },
  {
    category: 'timeout',
    when: /^Aborted by \S|Finished: ABORTED/m,
    steps: [
      'Someone (or a newer run) stopped this build; no check failed. If it was stopped because it hung, the last lines show what was running: a command that never returns (a server started in the foreground, a prompt waiting for input) must run in the background, as a service, or with a timeout.',
    ],
    instead: true,
  },
  {
    category: 'permission_auth',
    when: /KeytoolException|Keystore was tampered with|keystore password was incorrect/,
    steps: [
      'The Android signing keystore could not be read: the file the job writes from a CI secret is empty or truncated (a secret unset on this branch, or base64 decoded wrongly), or its password or key alias is wrong.',
      'Check that the secret decodes to the keystore (`base64 -d` it and compare the size with your local file) and that the store password, key alias and key password variables match it.',
    ],
    instead: true,
  },
  {
    category: 'config_yaml',
    when: /failed to (?:compute cache key|calculate checksum of ref)/,
    steps: [
      'The Dockerfile copies a path that is not in the build context: COPY paths are relative to the context directory (the last argument of `docker build`, or `context:` in compose and CI settings), and `.dockerignore` may exclude it. Fix the path or the context.',
    ],
  },
  {
    category: 'config_yaml',
    when: /Deploy directory '[^']*' does not exist/,
    steps: [
      'The site’s publish directory does not exist after the build: set it to where the build writes its output (for example `dist` or `build`, relative to the base directory).',
    ],
  },
  {
    category: 'config_yaml',
    when: /only supports files up to [\d.]+ ?MiB/,
    steps: [
      'A file in the output directory is over the platform’s size limit; it is usually a build cache (webpack’s `cache/`, `.next/cache`): keep caches out of the directory that is uploaded.',
    ],
  },
  {
    category: 'dependency_network',
    when: /UNREACHABLE!/,
    steps: [
      'Ansible could not reach the host over SSH: check from the runner that the host name resolves and port 22 is open to it (firewall, security group), and that the inventory address is right.',
    ],
  },
];

function nextStepsFor(
  category: FailureCategory,
  distilled: DistilledLog,
  locations: string[],
  context: JobContext | undefined,
): string[] {
  const cmd = distilled.failingCommand;
  const runIt = cmd ? `Reproduce it locally with the same image: \`${cmd}\`.` : undefined;
  const first = locations[0] ? ` Start at \`${locations[0]}\`.` : '';
  const text = distilled.decisive.map((d) => d.text).join('\n');
  const t = tool(distilled);
  const prev = context?.previousSuccess;
  const sameCommit = greenOnSameCommit(context);
  const specific = SPECIFIC_ADVICE.filter((a) => a.category === category && a.when.test(text));
  const steps: (string | undefined)[] = specific.flatMap((a) =>
    a.reproduce ? [...a.steps, runIt] : a.steps,
  );
  // Advice for the exact failure says what the general advice would only guess at.
  switch (specific.some((a) => a.instead) ? undefined : category) {
    case 'test_failure':
      steps.push(
        `Read the first failing test and its expected vs. actual values (quoted above).${first}`,
        runIt,
        t === 'jest'
          ? 'Run only that test: `npx jest <file> -t "<test name>"`.'
          : t === 'pytest'
            ? 'Run only that test: `pytest <file>::<test> -x -vv`.'
            : t === 'go'
              ? 'Run only that test: `go test ./<pkg> -run <TestName> -count=1 -v`.'
              : t === 'maven'
                ? 'Run only that test: `mvn -Dtest=<Class>#<method> test`.'
                : t === 'gradle'
                  ? 'Run only that test: `./gradlew test --tests <Class.method>`.'
                  : t === 'cargo'
                    ? 'Run only that test: `cargo test <name> -- --nocapture`.'
                    : undefined,
        'If it passes locally, look for order dependence, shared state, time zones or timing (retry the job once to rule out a flaky test).',
      );
      break;
    case 'compile_error':
      steps.push(
        `Fix the first error first; later ones often follow from it.${first}`,
        runIt,
        sameCommit
          ? // The code did not change, so what the build ran with did.
            'The same commit built before, so the code is not what changed: compare the compiler, linter and dependency versions the two runs installed (an unpinned tool or a new release of a dependency) and clear the build cache.'
          : 'Check whether this commit changed a signature, an import or a dependency version that the failing file relies on.',
      );
      break;
    case 'dependency_network':
      if (/toomanyrequests|pull rate limit|429 Too Many Requests/i.test(text)) {
        steps.push(
          'The registry is rate-limiting this runner’s pulls, not failing: retrying at once usually hits the same limit.',
          'Authenticate the pulls (a `docker login` with a token kept in a masked CI/CD variable), or pull through GitLab’s Dependency Proxy or a registry mirror so the limit counts against your group, not the runner’s IP.',
        );
      } else if (
        /checksums? did NOT match|checksum mismatch|verifying .*: checksum mismatch/i.test(text)
      ) {
        steps.push(
          'A download no longer matches its pinned checksum: the upstream file changed (a re-tagged release, a moved tarball) or the download was corrupted.',
          'Check the file upstream, then update the pinned version and checksum together; do not turn verification off.',
        );
      } else if (
        /certificate verify failed|SSL certificate problem|subject alternative name|issuer certificate|certificate has expired/i.test(
          text,
        )
      ) {
        steps.push(
          'The TLS certificate of the host was refused: it names another host, has expired, or is signed by a CA the image does not trust (a company proxy, an outdated `ca-certificates`).',
          'Update the image’s CA bundle (`apt-get install ca-certificates`, `update-ca-certificates`) or add the proxy’s CA; fix the URL if the certificate is for another host. Do not disable verification.',
          runIt,
        );
      } else if (
        /failed to run custom build command for `|Failed to build installable wheels|Could not build wheels for|subprocess-exited-with-error|metadata-generation-failed/.test(
          text,
        )
      ) {
        steps.push(
          'A dependency is built from source here and its native build failed, usually for a system library or tool the image lacks (the lines above name it: `openssl`, `pkg-config`, `libpq`, a C compiler).',
          'Install it in the image or in `before_script` (for example `apt-get install -y pkg-config libssl-dev`), or use a version of the package that ships a prebuilt wheel or binary for this platform.',
          runIt,
        );
      } else if (NETWORK.test(text) && !RESOLUTION.test(text)) {
        steps.push(
          'Retry the job: network errors to registries are often transient.',
          'If it keeps failing, check the registry or mirror status and the runner’s DNS, proxy (HTTP_PROXY/NO_PROXY) and firewall settings.',
          'Cache dependencies between jobs (GitLab `cache:`) or use a registry mirror to depend less on the network.',
        );
      } else if (/\bERESOLVE\b|peer dep|Conflicting peer dependency/i.test(text)) {
        steps.push(
          'This is an npm peer-dependency conflict, not a network problem: retrying will fail the same way. Read the `Found:` and `Could not resolve dependency: peer …` lines above: one package needs a different version of the other.',
          'Resolve it by upgrading (or downgrading) the package that declares the peer dependency to a release that accepts the installed version, or align the versions in package.json; `npm ls <package>` shows who pulls which version.',
          'Then regenerate and commit package-lock.json. `--legacy-peer-deps` or `--force` only hide the conflict.',
        );
      } else if (
        /nothing provides|No match for argument|unresolvable|has unmet dependencies|Unable to locate package/i.test(
          text,
        )
      ) {
        steps.push(
          'The build root cannot install a required package: a build dependency is named or versioned wrongly, or no enabled repository provides it. Retrying will not help.',
          'Check the BuildRequires (or install list) against what the target distribution ships (`dnf repoquery --whatprovides <capability>`, `zypper se --provides`, `apt-cache policy`), and enable the repository that has it or wait until it lands.',
          runIt,
        );
      } else {
        steps.push(
          'Fix the version constraint or the missing package named above, then regenerate and commit the lock file.',
          t === 'npm'
            ? 'For npm peer-dependency conflicts, align the versions (`npm ls <package>`); `--legacy-peer-deps` only hides the conflict.'
            : t === 'python'
              ? 'Check the package exists for this Python version and platform (`pip index versions <package>`), or add the missing package to the requirements.'
              : undefined,
          runIt,
        );
      }
      break;
    case 'oom_killed':
      steps.push(
        'Give the job more memory (a larger runner, or the Kubernetes executor’s memory limit/request) or make it use less.',
        t === 'npm' || t === 'jest'
          ? 'For Node: raise the heap (`NODE_OPTIONS=--max-old-space-size=4096`) or run fewer workers (`jest --maxWorkers=2`).'
          : t === 'gradle' || t === 'maven'
            ? 'For the JVM: set `-Xmx` (`org.gradle.jvmargs` / `MAVEN_OPTS`) below the container limit and reduce parallel workers.'
            : 'Reduce parallelism (`make -j`, worker counts, batch sizes) so peak memory fits the container limit.',
        'Exit code 137 means the process was killed (SIGKILL), usually by the out-of-memory killer.',
      );
      break;
    case 'timeout':
      steps.push(
        'Look at the last lines before the timeout (quoted above): that is what was running when time ran out.',
        'If a step hangs (waiting for input, a service or a lock), fix that rather than raising the limit; add timeouts to individual tests and network calls.',
        'If the job is genuinely slower now, raise `timeout:` in .gitlab-ci.yml (or the project’s CI/CD timeout), cache dependencies, or split it with `parallel:`.',
      );
      break;
    case 'permission_auth':
      if (/Permission denied/.test(text) && !/publickey|denied:|HTTP/i.test(text)) {
        steps.push(
          'Make the script executable and commit the mode: `git update-index --chmod=+x <script>` (or call it with `bash <script>`).',
          'If a file or directory is meant to be written, check the user the image runs as and the path’s ownership.',
        );
      } else {
        steps.push(
          'Check the credential the job uses: the CI/CD variable holding it, its expiry and its scopes (e.g. `read_registry`/`write_registry`, `read_api`).',
          'Protected variables are only available on protected branches and tags; check this ref is protected if the job relies on one.',
          'For another project’s repository or registry, allow this project in that project’s CI/CD job token settings, or use a deploy token.',
        );
      }
      break;
    case 'config_yaml':
      if (/413 Request Entity Too Large|too large archive/.test(text)) {
        steps.push(
          'GitLab refused the artifacts archive: it is over the instance’s or project’s maximum artifacts size. Narrow `artifacts:paths` (or add `artifacts:exclude`) to what later jobs and people need, or ask an administrator to raise the limit.',
        );
      }
      if (/invalid (?:target|source) release|release version \d+ not supported/i.test(text)) {
        steps.push(
          'The JDK in the job’s image is older than the Java release the build compiles for: use an image with that JDK (for example `eclipse-temurin:17`, or `setup-java`’s `java-version`), or lower `maven.compiler.release` / Gradle’s toolchain version to match.',
        );
      }
      steps.push(
        `Fix the file and line named above.${first}`,
        'Validate it locally before pushing (`yamllint`, `helm lint`, `terraform validate`, `docker compose config`, or GitLab’s CI Lint for .gitlab-ci.yml).',
        runIt,
      );
      break;
    case 'script_error':
      steps.push(
        runIt,
        /command not found|exit code 127/.test(text) || distilled.exitCode === 127
          ? 'A command is missing from the image: install it in the image or in `before_script`, or use an image that has it.'
          : undefined,
        DISK_FULL.test(text)
          ? 'The runner’s disk is full: the first “No space left” is where it ran out. Free space in the job (remove build outputs and caches you do not need, `docker system prune` on a shell runner), keep fewer artifacts, or use a runner with a larger disk.'
          : undefined,
        /Gradle build daemon disappeared unexpectedly/.test(text)
          ? 'The Gradle daemon died mid-build, most often killed for memory (https://github.com/gradle/gradle/issues/9371): keep `org.gradle.jvmargs` -Xmx well below the container’s limit, run fewer workers (`--max-workers`), or give the job more memory.'
          : undefined,
        /Segmentation fault|core dumped|Error 139/.test(text)
          ? 'A segmentation fault is a crash in native code: run the test binary under a debugger or with sanitizers (`-fsanitize=address`).'
          : undefined,
        'Exit codes: 1 = the command reported failure, 126 = not executable, 127 = command not found, 137 = killed (often OOM), 139 = segfault.',
      );
      break;
  }
  if (prev?.commit && context?.commit) {
    // The same commit passed before: there are no commits to compare, only the two runs.
    steps.push(
      sameCommit
        ? `The last green run (job #${prev.jobId}) built this same commit: compare its runner, image and services with this run's${category === 'test_failure' ? '' : ', and retry once to confirm it is intermittent'}.`
        : `Compare with the last green run: \`git log ${prev.commit.shortId}..${context.commit.shortId}\` lists the commits since.`,
    );
  }
  return steps.filter((s): s is string => s !== undefined);
}

/** The offline analyser's finding for one job, from its distilled log. */
export function diagnose(distilled: DistilledLog, context?: JobContext): Diagnosis {
  const voters = votersOf(distilled);
  const category = pickCategory(distilled, context, voters);
  const evidence = pickEvidence(distilled, category);
  // Evidence first; then stack frames and diagnostics shown around it in the excerpt.
  const locations = findLocations([
    ...evidence.map((e) => e.text),
    ...distilled.text
      .split('\n')
      .filter((l) => /^\s+at |^\s*File "|^\s*--> |^\s+\S+\.\w+:\d+/.test(l)),
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

/** Describes the previous green run and the commits since, in one line, or undefined. */
export function describeWhatChanged(context: JobContext | undefined): string | undefined {
  if (!context) return undefined;
  const prev = context.previousSuccess;
  if (prev === undefined) return undefined;
  const ref = context.ref ? ` on \`${context.ref}\`` : '';
  if (prev === null) return `No successful run of this job${ref} was found in recent pipelines.`;
  const then = prev.commit ? ` at commit ${prev.commit.shortId} “${prev.commit.title}”` : '';
  const now = context.commit
    ? ` This run is at ${context.commit.shortId} “${context.commit.title}” by ${context.commit.author}.`
    : '';
  return (
    `The last successful run of this job${ref} was job #${prev.jobId} in pipeline #${prev.pipelineId}${then}.` +
    (greenOnSameCommit(context)
      ? ' It ran the same commit, so the failure is not caused by a code change: suspect flakiness, the environment or an external service.'
      : now)
  );
}

/** A readable analysis of one failed job, made without any network access. */
export function analyseOffline(distilled: DistilledLog, context?: JobContext): string {
  if (distilled.totalLines === 0) {
    return [
      '**The job log is empty.**',
      '',
      'The job may not have started (stuck in pending, no runner picked it up), its log may have been erased, or the runner failed before printing anything.',
      context?.failureReason ? `GitLab’s failure reason: \`${context.failureReason}\`.` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  const d = diagnose(distilled, context);
  const lines = [
    `**Failing step:** ${d.failingStep}.`,
    d.generic
      ? `**Root cause category:** ${CATEGORY_LABELS[d.category]}, a fallback: no line here is in words the built-in rules know, so the decisive lines below matter more than the label (a configured AI provider can judge it).`
      : `**Root cause category:** ${CATEGORY_LABELS[d.category]}.`,
  ];
  const facts: string[] = [];
  if (distilled.exitCode !== undefined) facts.push(`exit code ${distilled.exitCode}`);
  if (context?.failureReason) facts.push(`GitLab failure reason \`${context.failureReason}\``);
  if (context?.allowFailure)
    facts.push('this job is allowed to fail, so the pipeline is not blocked by it');
  if (facts.length > 0) lines.push(`**Facts:** ${facts.join('; ')}.`);
  lines.push('', '**Decisive lines:**', quote(d.evidence));
  if (d.locations.length > 0) {
    lines.push('', `**Where:** ${d.locations.map((l) => `\`${l}\``).join(', ')}`);
  }
  const changed = describeWhatChanged(context);
  if (changed) lines.push('', `**What changed:** ${changed}`);
  if (context?.flakeHistory?.startsWith('failed and passed'))
    lines.push(
      '',
      `**Flaky:** this job ${context.flakeHistory} — retrying it is likely to pass, but the flake deserves a fix.`,
    );
  lines.push('', '**Next steps:**', ...d.nextSteps.map((s, i) => `${i + 1}. ${s}`));
  lines.push(
    '',
    `_Built-in offline analysis: pattern rules over the log (${distilled.keptLines} of ${distilled.totalLines} lines examined in focus). Configure an AI provider for a deeper explanation._`,
  );
  return lines.join('\n');
}
