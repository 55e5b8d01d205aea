/**
 * What makes a CI log line decisive. Each rule gives a line a score (how much it explains the
 * failure), a kind (how its neighbours are kept) and, where it says so, a root-cause category.
 * Rules run only on lines that pass the cheap `HINT` pre-filter, which keeps a 4 MiB log fast.
 */

/** Root-cause categories the offline analyser reports. */
export type FailureCategory =
  | 'test_failure'
  | 'compile_error'
  | 'dependency_network'
  | 'oom_killed'
  | 'timeout'
  | 'permission_auth'
  | 'config_yaml'
  | 'script_error';

/** How a matched line is treated by the distiller. */
export type LineKind = 'error' | 'summary-header' | 'detail' | 'warning' | 'noise';

/** One classification rule. */
export interface LineRule {
  re: RegExp;
  score: number;
  kind: LineKind;
  category?: FailureCategory;
}

// Lower-case words and phrases; a line holding none of them (in any case), none of the characters
// ✕ ✗ × ●, no `: [a-z]{1,5}\d{3}` (error codes such as `: ts2322`) and no `.go:<digit>` cannot match
// a rule below. Words that contain a shorter listed word (`failures` holds `fail`) are redundant but
// kept so the list reads as the vocabulary the rules use.
// prettier-ignore
const HINT_WORDS = [
  'err', 'fail', 'fatal', 'panic', 'traceback', 'caused by', 'exception', 'exit', 'killed',
  'memory', 'oom', 'timeout', 'timedout', 'time out', 'deadline', 'denied', 'forbidden',
  'unauthorised', 'unauthorized', 'eacces', 'econn', 'etimedout', 'enotfound', 'eai_again',
  'refused', 'unreachable', 'not found', 'no such', 'cannot', "can't", 'could not', "couldn't",
  'undefined', 'unable', 'invalid', 'yaml', 'mapping', 'expected', 'received', 'assert', 'warn',
  'what went wrong', 'summary', 'test run', 'tests run', 'test result', 'failures', 'mismatched',
  'unknown', 'missing', 'no matching', 'unsatisfiable', 'conflict', 'abort', 'segmentation',
  'signal', 'core dumped', 'syntax', 'unexpected', 'not allowed', 'terminated', 'exceeded',
  'unhealthy', 'manifest unknown', 'does not exist', 'nothing provides', 'no match for argument',
  'cancel', 'crash', 'implicit declaration', 'no output', '#test_', 'unmet', 'resolv',
  'does not apply', 'signaturedoesnotmatch', 'expiredtoken', 'dubious', 'not ok', 'no space left',
  'enospc', 'quota exceeded', 'unsafe repository', 'dubious ownership', 'shared',
  'unable to access', 'requested url', 'credential', 'expired', 'not apply', 'empty reply',
  'toomanyrequests', 'rate limit', 'too many requests', 'bad_alloc', 'ran longer than',
  'no rule to make target', 'violation', 'rakefile', 'gemfile', 'lockfile', 'go.mod needed',
  'installable set', 'solverproblem', 'custom build command', 'wheels', 'subprocess-exited',
  'metadata-generation', 'entity too large', 'too large archive', 'reserve enough space',
  'daemon disappeared', ': c: ', ': w: ', ': e: ', ': f: ', 'offense', 'formatted', 'reformat',
  'code style issues', 'diff in ', 'not available', 'spec satisfying',
  // Zero-shot (deps): apt, npm/Yarn engines, GitHub's API and pushes, curl's exit codes, Composer,
  // Go modules and Entra ID say what went wrong without any of the words above.
  'installation candidate', 'incompatible', 'not accessible', 'not valid', 'eslint config',
  'release file', 'lock file', 'curl: (', 'timed out', 'need auth', 'logged in', 'hook declined',
  'refusing to allow', 'aadsts', 'root composer.json', 'no required module',
  // Services and platforms (see their rules): Prisma, Android signing, Netlify, Cloudflare Pages.
  'database server', 'keytool', 'lint found', 'aborted', 'no such dsl method', 'workflowscript', 'ids available', 'uids or gids', 'subuid ranges', 'msb3644', 'solution not found', 'workflowscript', 'signingconfig', 'keystore', 'deploy did not succeed', 'only supports files up to',
  // Zero-shot (tests): Jest's `expect(jest.fn())…`, CTest's `(SEGFAULT)` / `(OTHER_FAULT)`, Dart's `[E]`.
  'expect(', 'segfault', 'other_fault', ' [e]',
  // Zero-shot (build): xcodebuild's failed-command lines, Gradle's `A problem occurred evaluating`.
  'in target ', 'normal arm', 'normal x86_64', 'problem occurred',
  // Zero-shot (gates): coverage thresholds, quality gates, audits, size budgets and text checks.
  'not met', 'fail-under', 'not reached', 'does not meet', 'covered ratio', 'missed ratio',
  'exceeds global', 'quality gate', 'weighted issue', 'bugs and', 'pmd failure', 'vulnerabilit',
  'critical: ', 'npm audit report', 'affected by', 'failon flag', 'onlyallow flag', 'maxsize',
  'below the specified', 'below the expected minimum', 'below the failure threshold',
  'covered percentage', 'missed percentage', 'coverage related', 'msi percentage', '>> issue: [b',
  ' rules on ', 'need approval', 'leaks found', 'potential problem', 'issues found in', 'rejected status code', 'maximum budget', 'known issues', ' problems, ', ' ==> ', 'issues found', 'dead link', '(standard:', '(experimental:',
  // Zero-shot (config-auth): AWS IAM's denials, sudo without a password, the GitHub CLI's token,
  // OpenSSH's deploy keys, the AWS CLI's region and Tailwind CSS 4's PostCSS plugin.
  'authorized to perform', 'terminal is required', 'password is required', 'no tty present',
  'incorrect password', 'set the gh_token', 'are too open', 'load key', 'must specify a region',
  'directly as a postcss plugin', "no `podfile' found", 'workload_identity_provider',
  'permission to push',
  // Bundler refusing a gem the Gemfile lacks (a Rails app's database adapter at boot).
  'not part of the bundle',
  // `docker login` without a username, libpq without a password.
  'with --password-stdin', 'no password supplied',
];
// Line starts that announce a failure without an alarming word (pytest, numbered failures).
// (`✘` opens Playwright's and swift-testing's failed-test lines.)
// (awesome_bot opens its list of broken links with `Issues :-(`; Pester's failed tests start `[-]`
// and end with their timings; gotestsum's summary starts `DONE`; Flutter's missing platform and its
// `The following assertion was thrown` have no alarming word.)
const HINT_START =
  /^(?:[A-Z][a-z]+-[A-Z][A-Za-z]+ : |\s*[eE] {2,}|\s*--> |\s*\d+\) |_{3,} |rspec \.\/|\*\* \(|e: |\s*✘ |Issues :-\($|\s*\[-\] \S.* \d+(?:\.\d+)?m?s \(\d|DONE \d+ tests?, |This project is not configured for the |No (?:Linux|macOS|Windows) desktop project|The following .+ was thrown )/;

const isDigit = (c: number) => c >= 48 && c <= 57;
/** The character code with ASCII upper case folded to lower case, as toLowerCase does. */
const fold = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);
const isLetter = (c: number) => fold(c) >= 97 && fold(c) <= 122;
/** `word` (lower-case ASCII) at `at` in `line`, ignoring ASCII case. */
function startsWithFolded(line: string, word: string, at: number): boolean {
  if (at + word.length > line.length) return false;
  for (let k = 0; k < word.length; k++) {
    if (fold(line.charCodeAt(at + k)) !== word.charCodeAt(k)) return false;
  }
  return true;
}
/** `: [a-z]{1,5}\d{3}` at `i`, ignoring case (letters are never digits: taking them greedily decides it). */
function errorCodeAt(s: string, i: number): boolean {
  if (s.charCodeAt(i) !== 58 || s.charCodeAt(i + 1) !== 32) return false;
  let j = i + 2;
  while (j < s.length && j - i < 7 && isLetter(s.charCodeAt(j))) j++;
  return (
    j > i + 2 &&
    isDigit(s.charCodeAt(j)) &&
    isDigit(s.charCodeAt(j + 1)) &&
    isDigit(s.charCodeAt(j + 2))
  );
}
/** `\.go:\d` at `i`, ignoring case. */
const goLocationAt = (s: string, i: number) =>
  startsWithFolded(s, '.go:', i) && isDigit(s.charCodeAt(i + 4));

// The pre-filter runs on every line of a log, and a regex alternation of ~120 words costs V8 about
// 13 ns a character (it tries the alternatives at every position) plus a lower-cased copy of the
// line. Instead a rolling hash of the last three characters indexes a table holding every upper-
// and lower-case spelling of the words' first three characters; only on a hit are the few words
// (or patterns) starting there compared, ignoring case: about 3 ns a character, and no copy.
type HintCheck = string | ((line: string, at: number) => boolean);
const HASH_MASK = 0x7fff;
const HINT_TABLE = new Uint16Array(HASH_MASK + 1);
const HINT_BUCKETS: HintCheck[][] = [[]];
function addHint(word: string, check: HintCheck): void {
  let spellings = [''];
  for (const ch of word.slice(0, 3)) {
    spellings = spellings.flatMap((p) => [...new Set([ch, ch.toUpperCase()])].map((c) => p + c));
  }
  for (const t of spellings) {
    const h = ((t.charCodeAt(0) << 10) ^ (t.charCodeAt(1) << 5) ^ t.charCodeAt(2)) & HASH_MASK;
    if (HINT_TABLE[h] === 0) {
      HINT_TABLE[h] = HINT_BUCKETS.length;
      HINT_BUCKETS.push([]);
    }
    // Hash collisions only put unrelated words in one bucket: every check compares its own text.
    const bucket = HINT_BUCKETS[HINT_TABLE[h]!]!;
    if (!bucket.includes(check)) bucket.push(check);
  }
}
for (const w of HINT_WORDS) {
  if (!HINT_WORDS.some((o) => o !== w && w.includes(o))) addHint(w, w);
}
for (let c = 97; c <= 122; c++) addHint(`: ${String.fromCharCode(c)}`, errorCodeAt);
addHint('.go', goLocationAt);

/**
 * Whether `line` holds a hint word, character or pattern, ignoring case. A line with characters
 * above ASCII is read lower-cased (`lowered`), since toLowerCase turns some of them into ASCII
 * letters (the Kelvin sign into `k`); matches found before such a character stand either way.
 */
function hasHintWord(line: string, lowered = false): boolean {
  let h = 0;
  for (let i = 0; i < line.length; i++) {
    let c = line.charCodeAt(i);
    if (c >= 128) {
      if (c === 0x2715 || c === 0x2717 || c === 0xd7 || c === 0x25cf) return true; // ✕ ✗ × ●
      if (!lowered) return hasHintWord(line.toLowerCase(), true);
      c = 127; // no word holds a character above ASCII
    }
    h = ((h << 5) ^ c) & HASH_MASK;
    if (i >= 2) {
      const bucket = HINT_TABLE[h]!;
      if (bucket !== 0) {
        for (const check of HINT_BUCKETS[bucket]!) {
          if (
            typeof check === 'string' ? startsWithFolded(line, check, i - 2) : check(line, i - 2)
          ) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

/**
 * Case-insensitive pre-filter: a line that matches none of these words cannot match a rule below.
 * Keep it in step with the rules (the distiller test checks every corpus decisive line passes it).
 */
export const HINT = {
  test: (line: string): boolean => HINT_START.test(line) || hasHintWord(line),
};

/** Lines that look alarming but say nothing went wrong ("0 errors", compiler flags). */
export const NOT_AN_ERROR =
  /\b0 (?:errors?|failed|failures|failing)\b|\bfailures: 0, errors: 0\b|\berrors?: 0\b|\bno errors?\b|\b0 vulnerabilities\b|\btests? (?:failed|errors?): 0\b|, continuing with (?:the )?build\b|^Total: 0 \((?:UNKNOWN|LOW|MEDIUM|HIGH|CRITICAL): /i;
// Command and setting words that make a line look alarming (`set -e`, `-Werror`, `|| true`): an
// echoed command, unless the line opens with an error verdict that merely quotes the command.
const ALARMING_WORDS = /-Werror|--fail-fast|error_reporting|\bset -e|\|\| true\b|allow_failure/i;
const OPENS_WITH_ERROR = /^\s*(?:Error|ERROR|error|fatal|FATAL)\b:? /;

/**
 * Prefixes CI systems put before every line, removed before rules look at it: GitHub Actions and
 * Taskcluster ISO timestamps (`2024-05-01T10:00:00.1234567Z`, `[task 2025-02-13T21:47:57.540Z]`),
 * Zuul's job-output timestamps (`2017-11-10 01:38:51.393909 | `, with the node's name since Zuul v3),
 * openSUSE OBS build times (`[  146s]`), mozharness log levels (`21:47:57    ERROR -`, `PID 123 |`),
 * mock's `DEBUG util.py:459:`, Vercel's build times (`13:39:31.418 `, `[16:01:19.375] `), Netlify's
 * (`7:35:09 AM: `), BuildKit's plain progress (`#10 0.512 `, `#10 ERROR: `, as `docker build
 * --progress=plain` and CI runs print it) and the stream tag after the timestamp in Railway's
 * downloaded deploy logs (`2025-09-28T18:57:34.572799056Z [err]  Error: …`).
 */
const CI_PREFIX =
  /^(?:(?:\[task [^\]]*\]|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \|(?: [\w.-]+ \|)?|\[\s*\d+(?:\.\d+)?s\]|\d\d:\d\d:\d\d(?:\.\d+)?\s+(?:INFO|WARNING|ERROR|CRITICAL|FATAL|DEBUG)\s+-|PID \d+ \||(?:DEBUG|INFO|WARNING|ERROR) \w+\.py:\d+:|##\[(?:error|warning|notice)\]|\[?\d\d:\d\d:\d\d\.\d{3}\]? |\d{1,2}:\d\d:\d\d [AP]M:|#\d+ (?:\d+\.\d+ )?|\[(?:err|inf|wrn|dbg)\] )[ \t]?)+/;
// `gh run view --log` puts the job and step names, tab-separated, before the timestamp.
const GH_RUN_LOG = /^[^\t]{1,200}\t[^\t]{0,300}\t(?=\d{4}-\d\d-\d\dT)/;

/** A log line without the CI system's own prefixes (see CI_PREFIX); other lines are returned as they are. */
export function stripCiPrefix(line: string): string {
  let c = line.charCodeAt(0);
  if (c !== 91 && !(c >= 48 && c <= 57) && line.includes('\t')) {
    const gh = GH_RUN_LOG.exec(line);
    if (gh) {
      line = line.slice(gh[0].length);
      c = line.charCodeAt(0);
    }
  }
  // Cheap gate: every prefix starts with '[', '#', a digit, 'P', 'D', 'I', 'W' or 'E'.
  if (
    c !== 91 &&
    c !== 35 &&
    !(c >= 48 && c <= 57) &&
    c !== 80 &&
    c !== 68 &&
    c !== 73 &&
    c !== 87 &&
    c !== 69
  ) {
    return line;
  }
  // The second character narrows it further (most `[` lines are `[INFO]`): `[task`, `[` then space
  // or digit; `##` or `#` and a digit; two digits or a digit and `:`; `PID`, `DEBUG`, `INFO`,
  // `WARNING`, `ERROR`.
  const c2 = line.charCodeAt(1);
  const isDigit2 = c2 >= 48 && c2 <= 57;
  if (
    c === 91
      ? (c2 >= 65 && c2 <= 90) || (c2 >= 97 && c2 <= 122 && c2 !== 116)
      : c === 35
        ? c2 !== 35 && !isDigit2
        : c >= 48 && c <= 57
          ? !isDigit2 && c2 !== 58
          : !(c2 >= 65 && c2 <= 90)
  ) {
    return line;
  }
  const m = CI_PREFIX.exec(line);
  return m ? line.slice(m[0].length) : line;
}

/** GitHub Actions marks lines its problem matchers flagged as errors with `##[error]`. */
export const CI_ERROR_ANNOTATION = /(?:^|Z )##\[error\]/;

/**
 * The line that opens a step: a GitHub Actions `##[group]Run …`, pytest's `____ test_x ____`, a
 * `$ command` or shell trace `+ command`, a Gradle task or Maven plugin banner, an rpm stage.
 */
export const LEAD_IN =
  /^##\[group\]Run |^_{3,} .+ _{3,}$|^\$ \S|^\+ \S|^> Task :|^\[INFO\] --- |^Executing\(%\w+\)|^make(?:\[\d+\])?: Entering directory|^Running (?:command|test|tests|\S+\.\w+)\b|^TEST-START \|/;

/** A full disk, in the words of the OS, Node (ENOSPC) and quota tools: it explains every failure after it. */
export const DISK_FULL = /No space left on device|\bENOSPC\b|[Dd]isk quota exceeded/;

/** Ordered rules; the highest score among matching rules wins, categories come from the best match. */
export const LINE_RULES: LineRule[] = [
  // GitLab runner's own verdict.
  { re: /\bERROR: Job failed\b/, score: 92, kind: 'error' },
  {
    re: /\bERROR: Job failed: execution took longer than|\bjob (?:execution )?timed? ?out\b|\bexceeded the job timeout\b/i,
    score: 96,
    kind: 'error',
    category: 'timeout',
  },
  // Mozilla's harness verdicts and sanitizer reports: a test (or the code under it) failed, or hung
  // until the harness killed it (`TEST-UNEXPECTED-TIMEOUT | … | application timed out after 370
  // seconds with no output`: the harness's limit, not the task's).
  {
    re: /\bTEST-UNEXPECTED-(?:FAIL|PASS|ERROR|CRASH|NOTRUN|TIMEOUT)\b|\bPROCESS-CRASH \||==\d+==ERROR: (?:Address|Leak|Memory|Thread)Sanitizer|\bERROR: (?:Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer\b|^SUMMARY: (?:Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer:|\bruntime error: .*(?:overflow|misaligned|null pointer|out of bounds)/,
    score: 91,
    kind: 'error',
    category: 'test_failure',
  },
  // Other CI systems' own timeouts and cancellations (Travis, GitHub Actions, Azure Pipelines,
  // Taskcluster, Jenkins: a build stopped by hand prints `Aborted by <user>` and `Finished: ABORTED`,
  // https://www.jenkins.io/doc/book/using/aborting-a-build/; a GitHub Actions step past its
  // `timeout-minutes` prints `The action 'Run tests' has timed out after 30 minutes.`,
  // https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepstimeout-minutes).
  {
    re: /exceeded the maximum (?:time limit|execution time)|\bThe action '[^']+' has timed out after \d+ minutes?\b|No output has been received in the last|max run time exceeded|Task timeout after \d+|Build timed out \(after|\bThe operation was canceled\b|has exceeded the maximum execution time|\bExceeded timeout of \d+ (?:minutes?|hours?)\b|ran longer than the maximum time of \d+|Cancelling nested steps due to timeout|^The command ".*" exited with 124\.|timed out after \d+ seconds? (?:with no|without) output|^Aborted by \S|^Finished: ABORTED\b/i,
    score: 95,
    kind: 'error',
    category: 'timeout',
  },
  // Package installs in build roots (dnf/mock, zypper/OBS, apt).
  {
    re: /\bnothing provides\b|\bNo match for argument\b|\bProblem(?: \d+)?: (?:nothing provides|package .* requires|conflicting requests|cannot install)|\bconflicting requests\b|have unresolvable requirements|\bhas unmet dependencies\b|Unable to locate package|Error: Unable to find a match|\bunresolvable: /,
    score: 92,
    kind: 'error',
    category: 'dependency_network',
  },
  // Services and platforms a build talks to, in their documented words: Prisma's P1001/P1002 (the
  // database the build or its prerendering queries cannot be reached,
  // https://www.prisma.io/docs/orm/reference/error-reference#p1001) and libpq's refused connection
  // are the network to a service, not the code; an Android release build whose signing keystore or
  // its password is wrong (`KeytoolException: Failed to read key … from store`, `Keystore was
  // tampered with, or password was incorrect`, https://developer.android.com/studio/publish/app-signing)
  // is a credentials problem.
  {
    re: /\bCan't reach database server at\b|\bThe database server at .* was reached but timed out\b|\bconnection to server at "[^"]*" \([^)]*\), port \d+ failed: Connection refused/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  {
    re: /\bKeytoolException: Failed to read key\b|\bKeystore was tampered with, or password was incorrect\b|\bkeystore password was incorrect\b|\bSigningConfig "[^"]+" is missing required property "(?:storePassword|keyPassword|keyAlias|storeFile)"/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // A Python import that fails inside an installed package (`ImportError: cannot import name
  // 'url_quote' from 'werkzeug.urls' (…/site-packages/werkzeug/urls.py)`,
  // https://docs.python.org/3/library/exceptions.html#ImportError): the versions installed do not
  // fit together; an unpinned dependency moved on.
  {
    re: /\bImportError: cannot import name '[^']+' from '[^']+' \([^)]*\b(?:site|dist)-packages\//,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // A build's own settings pointing at what is not there: BuildKit copying a path missing from the
  // build context (`failed to compute cache key: failed to calculate checksum of ref …: "/app":
  // not found`, https://docs.docker.com/build/concepts/context/), Netlify's publish directory
  // missing after the build (https://docs.netlify.com/configure-builds/troubleshooting-tips/),
  // Cloudflare Pages refusing an output file over its size limit (the output directory holds build
  // caches, https://developers.cloudflare.com/pages/platform/limits/#file-size).
  {
    re: /\bfailed to (?:compute cache key|calculate checksum of ref)\b.*": not found\b|^\s*Deploy did not succeed: Deploy directory '[^']*' does not exist|\bPages only supports files up to [\d.]+ ?MiB in size\b/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // Android Lint's text report (`app/src/main/AndroidManifest.xml:8: Error: … [IssueId]`) and its
  // verdict (`Lint found 2 errors, 17 warnings. First failure:`),
  // https://developer.android.com/studio/write/lint#commandline: the code failed a check, above
  // Gradle's `Execution failed for task ':app:lintDebug'` that wraps it.
  {
    re: /^\s*\S+\.(?:xml|kt|kts|java|gradle|png|json):\d+: Error: |^\s*Lint found [1-9]\d* errors?\b/,
    score: 89,
    kind: 'error',
    category: 'compile_error',
  },
  // electron-builder's and Next.js's error mark (`  ⨯ Application entry file "main.js" in the
  // "…/app.asar" does not exist.`, https://www.electron.build/): a generic error line, so that
  // Next.js's `⨯ Next.js build worker exited with code: 1` stays a wrapper.
  {
    re: /^\s*⨯ \S/,
    score: 85,
    kind: 'error',
    category: 'script_error',
  },
  // The job's own CI configuration rejected by the CI system: a Jenkinsfile calling a step or
  // section where the pipeline grammar has none (`No such DSL method 'post' found among steps`) or
  // failing to compile (`WorkflowScript: 12: …`, `MultipleCompilationErrorsException: startup
  // failed`), https://www.jenkins.io/doc/book/pipeline/syntax/.
  {
    re: /\bNo such DSL method '[^']+' found among steps\b|^WorkflowScript: \d+: |\bMultipleCompilationErrorsException: startup failed\b|\bin source unit 'WorkflowScript'/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // The Solidity compiler's diagnostics carry a numeric code (`Error (6275): Source "…" not found`,
  // `ParserError (2314): Expected ';'`, https://docs.soliditylang.org/en/latest/using-the-compiler.html),
  // and Foundry reports them under `Error: Compiler run failed:`.
  {
    re: /^(?:Error|ParserError|DeclarationError|TypeError|SyntaxError|DocstringParsingError) \(\d{4}\): /,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // A .NET Framework targeting pack the build machine lacks (`error MSB3644: The reference
  // assemblies for .NETFramework,Version=v4.6.1 were not found`,
  // https://learn.microsoft.com/visualstudio/msbuild/errors/msb3644): install it or retarget.
  {
    re: /\bMSB3644: The reference assemblies for .* were not found\b/i,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // MSBuild unable to copy a build output, usually because a running process holds the file
  // (`error MSB3021: Unable to copy file "…" to "…"`, MSB3026/MSB3027 after retrying,
  // https://learn.microsoft.com/visualstudio/msbuild/errors/msb3021): the build machine's state,
  // not the code.
  {
    re: /\berror MSB30(?:21|26|27): /,
    score: 88,
    kind: 'error',
    category: 'script_error',
  },
  // Azure Pipelines' VSBuild/MSBuild task given a solution pattern that matches nothing
  // (https://learn.microsoft.com/azure/devops/pipelines/tasks/reference/vsbuild-v1).
  {
    re: /\bSolution not found using search pattern\b/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // Rootless containers (podman, buildah) whose user has too few subordinate IDs for the image's
  // files: /etc/subuid and /etc/subgid need a range for the user
  // (https://github.com/containers/podman/blob/main/troubleshooting.md, "there might not be enough
  // IDs available in the namespace").
  {
    re: /\bthere might not be enough IDs available in the namespace\b|\bpotentially insufficient UIDs or GIDs available in user namespace\b|\bno subuid ranges found for user\b/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // PowerShell's error record, as its default view prints it (`Start-Process : This command cannot
  // be run because …`, then `At line:1 char:1` and `+ FullyQualifiedErrorId : …`,
  // https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_error_handling):
  // a cmdlet of the job's own script failed.
  {
    re: /^[A-Z][a-z]+-[A-Z][A-Za-z]+ : \S/,
    score: 86,
    kind: 'error',
    category: 'script_error',
  },
  // Zero-shot (gates): coverage thresholds, the test run's own gate, so a test failure. Jest's
  // `Jest: "global" coverage threshold for lines (80%) not met: 72.5%` and `Jest: Uncovered count
  // for lines (12) exceeds global threshold (10)`
  // (https://github.com/jestjs/jest/blob/main/packages/jest-reporters/src/CoverageReporter.ts),
  // coverage.py's and pytest-cov's `Coverage failure: total of 72 is less than fail-under=80` and
  // `FAIL Required test coverage of 80% not reached. Total coverage: 72.50%`
  // (https://coverage.readthedocs.io/en/latest/config.html#report-fail-under,
  // https://pytest-cov.readthedocs.io/en/latest/config.html), nyc's, c8's and Vitest's `ERROR:
  // Coverage for lines (72.5%) does not meet global threshold (80%)`
  // (https://github.com/istanbuljs/nyc#coverage-thresholds), JaCoCo's check rules `Rule violated for
  // bundle app: lines covered ratio is 0.72, but expected minimum is 0.80` and `Coverage checks have
  // not been met. See log for details.` (https://www.jacoco.org/jacoco/trunk/doc/check-mojo.html;
  // Maven prints the rule as a [WARNING], Gradle as `[ant:jacocoReport] Rule violated …`), Kover's
  // `Rule violated: lines covered percentage is 50.000000, but expected minimum is 80`
  // (https://kotlin.github.io/kotlinx-kover/gradle-plugin/#verification), coverlet's `The total line
  // coverage is below the specified 80` (https://github.com/coverlet-coverage/coverlet/blob/master/Documentation/MSBuildIntegration.md),
  // SimpleCov's `Line coverage (79.30%) is below the expected minimum coverage (90.00%).`
  // (https://github.com/simplecov-ruby/simplecov#minimum-coverage), cargo-tarpaulin's `Coverage is
  // below the failure threshold 72.50% < 80.00%` (https://github.com/xd009642/tarpaulin) and
  // Infection's mutation score `The minimum required MSI percentage should be 80%, but actual is
  // 72%. Improve your tests!` (https://infection.github.io/guide/command-line-options.html#min-msi).
  {
    re: /^(?:Jest: )?"[^"]+" coverage threshold for (?:lines|functions|statements|branches) \([\d.]+%\) not met: |^Jest: Uncovered count for (?:lines|functions|statements|branches) \(\d+\) exceeds |\bCoverage failure: total of [\d.]+ is less than fail-under=|\bRequired test coverage of [\d.]+% not reached\b|^(?:ERROR: )?Coverage for (?:lines|functions|statements|branches) \([\d.]+%\) does not meet (?:global |"[^"]*" )?threshold \(|\bRule violated for (?:bundle|package|class|sourcefile|method|group) \S+: \w+ (?:covered|missed) (?:ratio|count) is [\d.]+, but expected (?:minimum|maximum) is [\d.]+|\bCoverage checks have not been met\b|\bRule (?:'[^']*' )?violated: \w+ (?:covered|missed) (?:percentage|count) is [\d.]+, but expected (?:minimum|maximum) is\b|\bThe (?:total|minimum|average) (?:line|branch|method) coverage is below the specified [\d.]+|\bis below the expected minimum coverage\b|\bSimpleCov failed with exit \d+ due to a coverage related error\b|\bCoverage is below the failure threshold [\d.]+% < |\bThe minimum required (?:Covered Code )?MSI percentage should be [\d.]+%, but actual is\b/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (gates): static analysis that rejected the code, in the analysers' documented verdicts.
  // SonarQube/SonarCloud with `sonar.qualitygate.wait` (`QUALITY GATE STATUS: FAILED - View details
  // on …`, https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/ci-integration/overview/),
  // SonarSource's quality-gate action (`✖ Quality Gate has FAILED.`,
  // https://github.com/SonarSource/sonarqube-quality-gate-action) and Jenkins' waitForQualityGate
  // (`Pipeline aborted due to quality gate failure: ERROR`); detekt's `Build failed with 3 weighted
  // issues.` / `Analysis failed with 3 weighted issues.` (https://detekt.dev/docs/introduction/configurations/#build);
  // the Maven plugins' check goals: SpotBugs' findings (`[ERROR] Medium: Found reliance on default
  // encoding in … [x.Y] At Y.java:[line 12] DM_DEFAULT_ENCODING`) and `failed with 3 bugs and 0
  // errors` (https://github.com/spotbugs/spotbugs-maven-plugin), PMD's and Checkstyle's `You have 3
  // PMD violations.` / `You have 1 Checkstyle violation.` and PMD's `PMD Failure: x.Y:12
  // Rule:UnusedLocalVariable Priority:3 …` (https://maven.apache.org/plugins/maven-pmd-plugin/check-mojo.html,
  // https://maven.apache.org/plugins/maven-checkstyle-plugin/check-mojo.html), Gradle's Checkstyle and
  // PMD tasks (`Checkstyle rule violations were found. See the report at:`, `3 PMD rule violations
  // were found.`, https://docs.gradle.org/current/userguide/checkstyle_plugin.html), and ktlint's
  // findings (`src/A.kt:12:5: Unexpected blank line(s) before "}" (standard:no-blank-line-before-rbrace)`,
  // https://pinterest.github.io/ktlint/latest/install/cli/); security linters: Bandit's `>> Issue:
  // [B602:subprocess_popen_with_shell_equals_true] …` (https://bandit.readthedocs.io/en/latest/start.html),
  // Semgrep's `Ran 120 rules on 40 files: 3 findings.` (https://semgrep.dev/docs/cli-reference) and
  // gitleaks' `WRN leaks found: 1` (https://github.com/gitleaks/gitleaks#exit-codes); scanners of
  // infrastructure code: Checkov's `Passed checks: 9, Failed checks: 7, Skipped checks: 0` and its
  // `FAILED for resource: aws_s3_bucket.x` (not a test's FAILED, https://www.checkov.io/2.Basics/CLI%20Command%20Reference.html)
  // and tfsec's `1 potential problem(s) detected.` (https://aquasecurity.github.io/tfsec/latest/guides/usage/).
  {
    re: /\bQUALITY GATE STATUS: (?:FAILED|ERROR)\b|\bQuality Gate has FAILED\b|\bPipeline aborted due to quality gate failure\b|^(?:Build|Analysis) failed with [1-9]\d* weighted issues?\b|^\[ERROR\] (?:High|Medium|Low|Scary|Scariest|Troubling|Of Concern): .* \[[\w.$]+\] (?:At \S+:\[lines? [\d-]+\]|In \S+) [A-Z][A-Z0-9_]{2,}\s*$|\bfailed with [1-9]\d* bugs and \d+ errors\b|\bYou have [1-9]\d* (?:PMD|CPD|Checkstyle) (?:violations?|duplications?)\b|\bPMD Failure: \S+:\d+ Rule:\w+ Priority:\d|^Checkstyle rule violations were found\b|\b[1-9]\d* (?:PMD|Checkstyle|CodeNarc) rule violations were found\b|^\S+\.kts?:\d+:\d+: .* \((?:standard|experimental|[\w-]+):[\w-]+\)\s*$|^>> Issue: \[B\d{3}:\w+(?::\w+)?\] |^Ran \d+ rules? on \d+ files?: [1-9]\d* findings?\.|\bleaks found: [1-9]\d*\b|\bPassed checks: \d+, Failed checks: [1-9]\d*, Skipped checks: \d+|^\s*FAILED for resource: \S|\b[1-9]\d* potential problem\(s\) detected\./,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (gates): security and licence audits of the dependencies, which judge the build (not a
  // download that failed): yarn 1's `3 vulnerabilities found - Packages audited: 100`
  // (https://classic.yarnpkg.com/lang/en/docs/cli/audit/), pnpm's `3 vulnerabilities found`
  // (https://pnpm.io/cli/audit), npm's `# npm audit report` heading above the list
  // (https://docs.npmjs.com/cli/v10/commands/npm-audit; `N vulnerabilities (…)` is left alone: `npm
  // install` prints it in passing jobs too), pip-audit's `Found 2 known vulnerabilities in 1 package`
  // (https://github.com/pypa/pip-audit), safety's `-> Vulnerability found in django version 2.0`,
  // bundler-audit's `Vulnerabilities found!` (https://github.com/rubysec/bundler-audit), cargo
  // audit's `error: 1 vulnerability found!` (https://docs.rs/crate/cargo-audit), cargo deny's
  // `error[rejected]: failed to satisfy license requirements`, `error[vulnerability]: …` and
  // `advisories FAILED, bans ok, …` (https://embarkstudios.github.io/cargo-deny/checks/licenses/diags.html),
  // Trivy's per-target `Total: 3 (UNKNOWN: 0, LOW: 0, MEDIUM: 0, HIGH: 2, CRITICAL: 1)`
  // (https://trivy.dev/latest/docs/configuration/others/#exit-code), Grype's `discovered
  // vulnerabilities at or above the severity threshold` (https://github.com/anchore/grype#gating-on-severity-of-vulnerabilities),
  // Snyk's `✗ High severity vulnerability found in lodash` and `Tested 45 dependencies for known
  // issues, found 3 issues` (https://docs.snyk.io/snyk-cli/commands/test), OWASP dependency-check's
  // `One or more dependencies were identified with vulnerabilities that have a CVSS score greater
  // than or equal to '7.0'` (https://jeremylong.github.io/DependencyCheck/dependency-check-maven/configuration.html),
  // govulncheck's `Your code is affected by 2 vulnerabilities from 1 module.`
  // (https://go.dev/doc/tutorial/govulncheck) and license-checker's `Found license defined by the
  // --failOn flag: "GPL-3.0". Exiting.` (https://github.com/davglass/license-checker#options) and
  // LicenseFinder's `Dependencies that need approval:` (https://github.com/pivotal/LicenseFinder#usage).
  {
    re: /^[1-9]\d* vulnerabilit(?:y|ies) found(?: - Packages audited: \d+)?\s*$|^# npm audit report\s*$|\bFound [1-9]\d* known vulnerabilit(?:y|ies) in \d+ packages?\b|^\s*-> Vulnerability found in \S+ version\b|^Vulnerabilities found!\s*$|^error: [1-9]\d* vulnerabilit(?:y|ies) found!|^error\[(?:rejected|unlicensed|vulnerability|unmaintained|unsound|yanked|banned|notice)\]: |\badvisories FAILED, bans \w+, licenses \w+, sources \w+|\blicenses FAILED, sources \w+|^Total: [1-9]\d* \((?:UNKNOWN|LOW|MEDIUM|HIGH|CRITICAL): \d+|\bdiscovered vulnerabilities at or above the severity threshold\b|^\s*✗ (?:Low|Medium|High|Critical) severity vulnerability found in \S|\bTested \d+ dependencies for known (?:issues|vulnerabilities), found [1-9]\d* (?:issues|vulnerabilities)\b|\bOne or more dependencies were identified with vulnerabilities that have a CVSS score\b|\bYour code is affected by [1-9]\d* vulnerabilit(?:y|ies)\b|\bFound license defined by the --failOn flag\b|\bpackages? with licenses defined by the --failOn flag\b|\bwhich is not permitted by the --onlyAllow flag\b|^Dependencies that need approval:\s*$/,
    score: 86,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (gates): size and performance budgets. The bundlers' own budgets reject the build:
  // webpack's performance hints as errors (`ERROR in asset size limit: The following asset(s)
  // exceed the recommended size limit (244 KiB).`, https://webpack.js.org/configuration/performance/#performancehints;
  // the same text as a WARNING fails nothing) and Angular's budgets (`✘ [ERROR] bundle initial
  // exceeded maximum budget. Budget 500.00 kB was not met by …`, older `Error: …` and `ERROR in
  // budgets: Exceeded maximum budget for initial.`, https://angular.dev/tools/cli/build#configuring-size-budgets).
  {
    re: /^ERROR in (?:asset|entrypoint) size limit: |^(?:✘ \[ERROR\] |X \[ERROR\] |Error: |ERROR in budgets: ).*\b[Ee]xceeded maximum budget\b/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (gates): a size check the project runs as a script of its own: size-limit's `Package
  // size limit has exceeded by 2.1 kB` (https://github.com/ai/size-limit) and bundlesize's `FAIL
  // ./dist/app.js: 12KB > maxSize 10KB (gzip)` (https://github.com/siddharthkp/bundlesize). The
  // corpus annotators file size-limit under the project's own check script (a development log,
  // whose `yarn test` runs it), so these stay script errors rather than the bundlers' verdicts.
  {
    re: /\b(?:Package )?[Ss]ize limit has exceeded by\b|\S: [\d.]+ ?[kKMG]?B > maxSize [\d.]+ ?[kKMG]?B\b/,
    score: 88,
    kind: 'error',
    category: 'script_error',
  },
  // Zero-shot (gates): checks that run against the built site or its links, like tests: Lighthouse
  // CI's assertions (`✘  categories.performance failure for minScore assertion` and `Assertion
  // failed. Exiting with status code 1.`, https://github.com/GoogleChrome/lighthouse-ci/blob/main/docs/configuration.md#assert;
  // `⚠️ … warning for … assertion` lines fail nothing) and markdown-link-check's `ERROR: 2 dead
  // links found!` (https://github.com/tcort/markdown-link-check): the corpus annotators file a link
  // checker's dead links (awesome_bot's, development logs) as a test failure; lychee's `Issues found
  // in 1 input. Find details below.` and its links (`[404] https://x/y (at 3:10) | Rejected status
  // code: 404 Not Found`, `[ERROR] https://x | Not found`, https://lychee.cli.rs/troubleshooting/) likewise,
  // and so are awesome_bot's `Issues :-(` (https://github.com/dkhamsing/awesome_bot, lib/awesome_bot/cli.rb),
  // linkinator's `ERROR: Detected 3 broken links. Scanned 120 links in 4.2 seconds.`
  // (https://github.com/JustinBeckwith/linkinator) and HTML-Proofer's `HTML-Proofer found 2
  // failures!` (https://github.com/gjtorikian/html-proofer).
  {
    re: /^\s*(?:✘|X)\s+\S+ failure for \w+ assertion\b|^Assertion failed\. Exiting with status code [1-9]|^\s*ERROR: [1-9]\d* (?:file\(s\) with )?dead links? found!|^Issues :-\($|\bERROR: Detected [1-9]\d* broken links?\. Scanned\b|\bHTML-Proofer found [1-9]\d* failures?!|^Issues found in \d+ inputs?\. Find details below\.|^(?:✗ )?\[(?:[45]\d\d|ERROR|ERR|TIMEOUT)\] https?:\/\/\S+ (?:\(at \d+:\d+\) )?\| \S/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (gates): checks on the repository's text that reject the change like a linter:
  // commitlint's `✖   found 1 problems, 0 warnings` (its rule lines, `✖   subject may not be empty
  // [subject-empty]`, are kept as context) (https://commitlint.js.org/reference/cli.html), codespell's
  // `./README.md:12: teh ==> the` (https://github.com/codespell-project/codespell), cspell's
  // `src/a.ts:12:5 - Unknown word (teh)` and `CSpell: Files checked: 10, Issues found: 2 in 2 files.`
  // (https://cspell.org/docs/command-line/), and pre-commit's hook verdict
  // `black....................Failed` above `- hook id: black` (https://pre-commit.com/#usage): the
  // hook's own output below says more and, where a rule knows it, gives the category.
  {
    re: /^\s*✖\s+found [1-9]\d* problems?, \d+ warnings?\b|^\S+:\d+: \S.* ==> \S|^\S+:\d+:\d+ - Unknown word \(|\bIssues found: [1-9]\d* in \d+ files?\b|^[^.\s][^.]*\.{3,}Failed\s*$/,
    score: 85,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (config-auth): build and CI configuration pointing at what is not there or naming
  // what the tool does not know, in the tools' own words, so that such jobs are not called script
  // errors. Above the dependency rules, so Go's `no required module provides package …: go.mod file
  // not found …` reads as the missing go.mod it is. Docker's legacy builder copying a path outside
  // the build context (`COPY failed: file not found in build context or excluded by .dockerignore:
  // stat app.py: file does not exist`, https://github.com/moby/moby/blob/master/builder/dockerfile/copy.go),
  // or given a context path that is not there or an image name it cannot parse (`unable to prepare
  // context: path "./app" not found`, https://github.com/docker/cli/blob/master/cli/command/image/build.go;
  // `invalid reference format: repository name must be lowercase`, often `${{ github.repository }}`
  // with capitals, https://github.com/distribution/reference/blob/main/reference.go);
  // tsc rejecting its options or tsconfig (TS5023/TS5025 `Unknown compiler option`, TS5024, TS5057,
  // TS5058, TS5083 `Cannot read file`, TS6046 `Argument for '--target' option must be: …`,
  // https://github.com/microsoft/TypeScript/blob/main/src/compiler/diagnosticMessages.json); Jest's
  // and Vitest's test patterns matching no file (`No tests found, exiting with code 1`,
  // https://github.com/jestjs/jest/blob/main/packages/jest-core/src/getNoTestFound.ts; `exiting with
  // code 0` under --passWithNoTests fails nothing), and pytest given a path that is not there
  // (`ERROR: file or directory not found: tests/unit`, a usage error,
  // https://github.com/pytest-dev/pytest/blob/main/src/_pytest/main.py); Cargo without or with a broken Cargo.toml of
  // the project (`error: failed to parse manifest at `…``,
  // https://github.com/rust-lang/cargo/blob/master/src/cargo/util/toml/mod.rs; a manifest under
  // ~/.cargo is a dependency's, too new for the toolchain); Go outside a module (`go.mod file not
  // found in current directory or any parent directory`,
  // https://github.com/golang/go/blob/master/src/cmd/go/internal/modload/init.go); Terraform without
  // a required variable or with one its validation rejects (https://github.com/hashicorp/terraform/blob/main/internal/backend/unparsed_value.go);
  // Gradle build scripts calling a method the DSL lacks (`Could not find method implementation() for
  // arguments [x] on object of type …`, Gradle's BeanDynamicObject) or naming a project that is not
  // in the build (`Project 'app' not found in root project 'demo'.`, TaskSelector); actions/setup-node
  // caching without a lock file (https://github.com/actions/setup-node/blob/main/src/cache-utils.ts);
  // Cobra/pflag CLIs (docker, kubectl, helm, gh) given a flag they lack (`unknown flag: --platfrom`,
  // `unknown shorthand flag: 'x' in -x`, https://github.com/spf13/pflag/blob/master/flag.go); Maven's
  // model validation (`[ERROR] 'dependencies.dependency.version' for x:y:jar is missing.`,
  // https://github.com/apache/maven/blob/master/maven-model-builder/src/main/java/org/apache/maven/model/validation/DefaultModelValidator.java;
  // the same check on a plugin's version is only a [WARNING]); Yarn 1 and npm 6 without a
  // package.json (`error Couldn't find a package.json file in "/x"`,
  // https://github.com/yarnpkg/yarn/blob/master/src/reporters/lang/en.js, and npm 6's `npm ERR! enoent
  // ENOENT: no such file or directory, open '/x/package.json'`; a path in Yarn's cache or
  // node_modules is a broken install, not the project).
  {
    re: /\bfile not found in build context or excluded by \.dockerignore\b|\bunable to prepare context: path "[^"]+" not found\b|\binvalid reference format\b|\brepository name must be lowercase\b|\berror TS(?:5023|5024|5025|5057|5058|5083|6046): |^(?:\S+ )?No tests? (?:files )?found, exiting with code [1-9]|^ERROR: file or directory not found: \S|\bfailed to parse manifest at `(?![^`]*[\\/](?:\.cargo|registry)[\\/])|\bcould not find `Cargo\.toml` in `[^`]*` or any parent directory|\bgo\.mod file not found in current directory or any parent directory\b|^go: cannot find main module, but found \S+ in |^[\s│]*Error: (?:No value for required variable|Invalid value for (?:input )?variable)\b|\bCould not find method [\w$]+\(\) for arguments \[|\bProject '[^']+' not found in (?:root )?project '|\bProject with path '[^']+' could not be found in\b|\bDependencies lock file is not found in \S|^(?:Error: |(?![Ww][Aa][Rr][Nn])\S+: )?unknown (?:shorthand )?flag: (?:--?\w|'.' in -)|^\[(?:ERROR|FATAL)\]\s+'[\w.]+' for \S+ (?:is missing|must be)\b|\bCouldn't find a package\.json file in "(?![^"]*[\\/](?:\.cache[\\/]yarn|[Yy]arn[\\/][Cc]ache|node_modules)[\\/])|\bnpm (?:ERR!|error) enoent ENOENT: no such file or directory, open '(?![^']*node_modules)[^']*[\\/]package\.json'/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (config-auth): project settings that point at what is not there, for build tools and
  // hosting platforms: the AWS CLI with a profile or region never configured (`The config profile
  // (deploy) could not be found`, `You must specify a region.`,
  // https://github.com/boto/botocore/blob/develop/botocore/exceptions.py), a Gradle build script
  // reading a property nobody set (`Could not get unknown property 'x' for project ':app' of type
  // …`, Gradle's BeanDynamicObject as above), Maven run without a goal or with a settings file that
  // is not there (https://github.com/apache/maven/blob/maven-3.9.x/maven-embedder/src/main/java/org/apache/maven/cli/MavenCli.java),
  // the Android Gradle plugin without an SDK location (`SDK location not found. Define a valid SDK
  // location with an ANDROID_HOME environment variable …`, https://developer.android.com/tools/variables#android_home),
  // Next.js without a `pages` or `app` directory
  // (https://github.com/vercel/next.js/blob/canary/packages/next/src/lib/find-pages-dir.ts), Rollup
  // and Vite without their entry (`Could not resolve entry module "index.html".`,
  // https://github.com/rollup/rollup/blob/master/src/utils/logs.ts), the Angular CLI outside a
  // workspace (https://github.com/angular/angular-cli/blob/main/packages/angular/cli/src/command-builder/command-module.ts),
  // Vercel's output directory missing after the build (https://vercel.com/docs/errors/error-list#missing-public-directory)
  // and actions/configure-pages on a repository without Pages enabled
  // (https://github.com/actions/configure-pages/blob/main/src/api-client.js); a Gradle build
  // applying a script file that is not there (`Could not read script '…' as it does not exist.`,
  // https://github.com/gradle/gradle/blob/master/platforms/core-runtime/resources/src/main/java/org/gradle/internal/resource/UriTextResource.java)
  // and a PostCSS configuration naming Tailwind CSS 4 the old way (`It looks like you're trying to
  // use `tailwindcss` directly as a PostCSS plugin.`, https://tailwindcss.com/docs/installation/using-postcss);
  // a requirements file pip cannot parse (`ERROR: Invalid requirement: 'django==' (from line 3 of
  // requirements.txt)`, https://github.com/pypa/pip/blob/main/src/pip/_internal/req/constructors.py),
  // a Ruby other than the Gemfile's (`Your Ruby version is 3.0.6, but your Gemfile specified 3.2.2`,
  // https://bundler.io/guides/gemfile_ruby.html), setup-node pointed at a version file that is not
  // there (https://github.com/actions/setup-node/blob/main/src/util.ts), a Gradle wrapper whose jar
  // was never committed (`Could not find or load main class org.gradle.wrapper.GradleWrapperMain`,
  // https://docs.gradle.org/current/userguide/gradle_wrapper.html), and Flutter or pub run outside a
  // package (`Error: No pubspec.yaml file found.`, https://github.com/flutter/flutter/blob/master/packages/flutter_tools/lib/src/runner/flutter_command.dart;
  // `Could not find a file named "pubspec.yaml" in "/x".`, https://dart.dev/tools/pub/cmd); and the
  // other package and build tools run where their project file is not: Composer
  // (https://github.com/composer/composer/blob/main/src/Composer/Factory.php), Mix (`** (Mix) Could
  // not find a Mix.Project, please ensure …`, https://github.com/elixir-lang/elixir/blob/main/lib/mix/lib/mix/exceptions.ex),
  // `dotnet run` (https://learn.microsoft.com/dotnet/core/tools/dotnet-run), CocoaPods (`[!] No
  // `Podfile' found in the project directory.`, https://github.com/CocoaPods/CocoaPods/blob/master/lib/cocoapods/command.rb),
  // and one it cannot evaluate (`[!] Invalid `Podfile` file: undefined method `x' for
  // #<Pod::Podfile>`, a plugin not loaded or a DSL method of another version,
  // https://github.com/CocoaPods/Core/blob/master/lib/cocoapods-core/podfile.rb, `Podfile.from_ruby`),
  // Bazel (`ERROR: The 'build' command is only supported from within a workspace`,
  // https://bazel.build/external/overview) and CMake (`CMake Error: The source directory "/x" does
  // not exist.`, https://cmake.org/cmake/help/latest/manual/cmake.1.html).
  {
    re: /\bThe config profile \([^)]+\) could not be found\b|\bYou must specify a region\. You can also configure your region\b|\bCould not get unknown property '[^']+' for \S|\bNo goals have been specified for this build\b|\bThe specified (?:user|global) (?:settings|toolchains) file does not exist: |\bSDK location not found\. Define (?:a valid SDK )?location with an ANDROID_\w+ environment variable\b|\bCouldn't find any `pages` or `app` directory\b|\bCould not resolve entry module\b|\bThis command is not available when running the Angular CLI outside a workspace\b|\bNo Output Directory named "[^"]+" found after the Build completed\b|\bGet Pages site failed\. Please verify that the repository has Pages enabled\b|\bCould not read script '[^']+' as it does not exist\b|\bIt looks like you're trying to use `tailwindcss` directly as a PostCSS plugin\b|^ERROR: Invalid requirement: '|\bYour Ruby version is \S+, but your Gemfile specified\b|\bThe specified node version file at: \S+ does not exist\b|\bCould not find or load main class org\.gradle\.wrapper\.GradleWrapperMain\b|\bNo pubspec\.yaml file found\b|\bCould not find a file named "pubspec\.yaml" in\b|\bComposer could not find a composer\.json file in\b|\bCould not find a Mix\.Project, please ensure\b|\bCouldn't find a project to run\. Ensure a project exists in\b|\bNo `Podfile' found in the project directory\b|\bInvalid `Podfile` file: |\bThe '\w+' command is only supported from within a workspace\b|^CMake Error: The source directory "[^"]*" does not exist\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // A required setting never set: the job (or the app it builds or starts) reads an environment
  // variable nobody defined, a configuration failure rather than the script's own. Programs that
  // check say so in a few common shapes (`Missing required environment variable: DATABASE_URL`,
  // `Environment variable X is not set`, `STRIPE_SECRET_KEY must be set`); Python's `os.environ[...]`
  // raises `KeyError` with the variable's name (https://docs.python.org/3/library/os.html#os.environ;
  // an upper-case name with an underscore, so a dictionary's `KeyError: 'name'` stays generic); the
  // Gradle and Maven wrappers stop with `ERROR: JAVA_HOME is not set and no 'java' command could be
  // found in your PATH.` (https://github.com/gradle/gradle, the gradlew script); and the Supabase
  // clients refuse to start without their URL and key (`@supabase/ssr: Your project's URL and API
  // key are required to create a Supabase client!`, https://supabase.com/docs/guides/auth/server-side/creating-a-client).
  {
    re: /\b[Mm]issing (?:required )?(?:[\w.-]+ ){0,2}(?:environment|env) var(?:iable)?s?\b|\b(?:[Ee]nvironment|[Ee]nv) var(?:iable)? [`'"]?[A-Z][A-Z0-9]*_[A-Z0-9_]*[`'"]? (?:is )?(?:not set|not defined|missing|required|undefined|empty)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]* (?:environment variable )?(?:is not set|must be (?:set|defined|provided))\b(?!, using)|^KeyError: '[A-Z][A-Z0-9]*_[A-Z0-9_]*'$|\bJAVA_HOME is not set and no 'java' command\b|\bURL and (?:API )?[Kk]ey are required to create a Supabase client\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (config-auth): credentials refused or missing, where the tools' words hold none of the
  // generic rules' phrases. AWS IAM denying an action (`User: arn:aws:iam::1:user/ci is not
  // authorized to perform: ecr:GetAuthorizationToken on resource: *`,
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html), Python urllib's
  // 401/403 (`urllib.error.HTTPError: HTTP Error 403: Forbidden`,
  // https://github.com/python/cpython/blob/main/Lib/urllib/error.py), Go's SSH client refused by the
  // host (`ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey],
  // no supported methods remain`, https://github.com/golang/crypto/blob/master/ssh/client_auth.go:
  // deploy actions and Terraform's provisioners use it), sudo without a password in CI (`sudo: a
  // terminal is required to read the password; …`, `sudo: a password is required`,
  // https://github.com/sudo-project/sudo/blob/main/src/tgetpass.c), GitLab refusing a clone or
  // fetch of a project the job token may not read (`remote: The project you were looking for could
  // not be found or you don't have permission to view it.`, https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/git_access.rb;
  // GitLab says "not found" on purpose rather than "forbidden"), and the GitHub CLI without a token
  // (`gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.`,
  // https://cli.github.com/manual/gh_help_environment), .NET's HttpClient refused by a feed or API
  // (`Response status code does not indicate success: 401 (Unauthorized).`, as `dotnet nuget push`
  // prints it, https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/Resources/Strings.resx),
  // and OpenSSH refusing a deploy key its secret holds badly (`Load key "/root/.ssh/id_rsa": invalid
  // format`, `Permissions 0644 for '…' are too open.`,
  // https://github.com/openssh/openssh-portable/blob/master/authfile.c); azure/login without the
  // secrets it needs (`Not all values are present. Ensure 'client-id' and 'tenant-id' are supplied.`,
  // https://github.com/Azure/login#readme), Terraform's S3 backend without AWS credentials
  // (https://developer.hashicorp.com/terraform/language/backend/s3#credentials-and-shared-configuration)
  // and Azure Repos refusing a repository the pipeline may not read (`TF401019: … does not exist or
  // you do not have permissions …`, https://learn.microsoft.com/azure/devops/pipelines/repos/multi-repo-checkout),
  // the Vercel CLI with a token it refuses (https://vercel.com/docs/cli/global-options#token),
  // google-github-actions/auth without its secrets (`the GitHub Action workflow must specify exactly
  // one of "workload_identity_provider" or "credentials_json"!`, https://github.com/google-github-actions/auth#inputs;
  // secrets are not passed to workflows from forks) and RubyGems refusing a push by a non-owner
  // (https://guides.rubygems.org/publishing/); appleboy/ssh-action and scp-action with an empty key
  // secret (`Error: can't connect without a private SSH key or password`,
  // https://github.com/appleboy/drone-ssh/blob/master/plugin.go); `docker login` given an empty
  // username secret (`Must provide --username with --password-stdin`,
  // https://github.com/docker/cli/blob/master/cli/command/registry/login.go); and PostgreSQL clients
  // without a password (pgjdbc's `The server requested SCRAM-based authentication, but no password
  // was provided.`, https://github.com/pgjdbc/pgjdbc/blob/master/pgjdbc/src/main/resources/org/postgresql/translation/messages.pot;
  // libpq's `fe_sendauth: no password supplied`, https://www.postgresql.org/docs/current/libpq-connect.html).
  {
    re: /\bis not authorized to perform: [\w-]+:[\w*]+|\bHTTP Error 40[13]: (?:Forbidden|Unauthorized)\b|\bssh: unable to authenticate, attempted methods\b|^sudo: (?:a terminal is required to read the password|a password is required|no tty present and no askpass program specified|\d+ incorrect password attempts?)\b|(?:^|GitLab: |remote: |ERROR: )The project you were looking for could not be found\b|\bTo use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable\b|\bResponse status code does not indicate success: 40[13] \(|^Permissions 0?[0-7]{3,4} for '[^']+' are too open\.|^Load key "[^"]+": (?:invalid format|bad permissions|error in libcrypto)\b|\bNot all values are present\. Ensure 'client-id' and 'tenant-id' are supplied\b|\bno valid credential sources for S3 Backend found\b|\bTF401019: The Git repository with name or identifier \S+ does not exist or you do not have permissions\b|\bThe specified token is not valid\. Use `vercel login`|\bmust specify exactly one of "workload_identity_provider" or "credentials_json"|\bYou do not have permission to push to this gem\b|\bcan't connect without a private SSH key or password\b|\bMust provide --username with --password-stdin\b|\bThe server requested (?:SCRAM-based|password-based) authentication, but no password was provided\b|\bfe_sendauth: no password supplied\b/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Zero-shot (deps): credentials missing or refused, in the words the tools document. Above the
  // fetch rules, so git's `unable to access '…': The requested URL returned error: 403` reads as an
  // auth failure, not a download one. GitHub's API refusing the job's token
  // (https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api) and a push of
  // workflow files or to a protected branch
  // (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/troubleshooting-rules),
  // npm's ENEEDAUTH/EOTP and a 404 on publish (https://docs.npmjs.com/cli/v10/using-npm/registry),
  // pnpm's FETCH_401/403 (https://pnpm.io/errors), git hosting refusing passwords, hosts and
  // pushes, twine and PyPI trusted publishing (https://docs.pypi.org/trusted-publishers/troubleshooting/),
  // `docker login` without a password in CI, a registry's `denied: denied` and ECR's `no basic auth
  // credentials`, an action input naming a token left empty (`Input required and not supplied:
  // token`, https://github.com/actions/toolkit/blob/main/packages/core/src/core.ts: a secret not
  // passed on, e.g. to a fork's pull request).
  {
    re: /(?:^|: )Resource not accessible by (?:integration|personal access token)\b|\bMust have admin rights to Repository\b|refusing to allow (?:a GitHub App|an OAuth App|a Personal Access Token) to create or update workflow|\bprotected branch hook declined\b|\bGH006: Protected branch update failed\b|\bnpm (?:ERR!|error) code (?:ENEEDAUTH|EOTP)\b|\bnpm (?:ERR!|error) need auth\b|\bThis command requires you to be logged in\b|\bnpm (?:ERR!|error) 404 Not Found - PUT |\bUnable to authenticate, need: |^\s*\[?ERR_PNPM_FETCH_40[13]\b|\bInvalid username or token\b|\bSupport for password authentication was removed\b|\bcould not read Password for\b|^Host key verification failed\.|\bYou are not allowed to (?:push|download) code\b|\bInvalid or non-existent authentication information\b|\bTrusted publishing exchange failure\b|\bCannot perform an interactive login from a non TTY device\b|\bdenied: denied\b|^denied: .*\bpermission\b|\bno basic auth credentials\b|\bInput required and not supplied: [\w-]*(?:token|TOKEN|Token|password|PASSWORD|Password|secret|SECRET|Secret|credentials|CREDENTIALS|api[-_]?key|API_KEY)\b|The requested URL returned error: 40[13]\b/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Zero-shot (deps): cloud credentials missing or refused: aws-actions/configure-aws-credentials
  // (https://github.com/aws-actions/configure-aws-credentials#oidc), the AWS CLI's
  // `An error occurred (AccessDenied) when calling …` and STS token errors
  // (https://docs.aws.amazon.com/cli/latest/userguide/cli-chap-troubleshooting.html), a job without
  // `id-token: write` asking for an OIDC token, gcloud without an account and Google's
  // DefaultCredentialsError (https://cloud.google.com/docs/authentication/troubleshoot-adc), and
  // Entra ID's AADSTS codes (https://learn.microsoft.com/entra/identity-platform/reference-error-codes).
  {
    re: /\bCredentials could not be loaded\b|\bCould not load credentials from any providers\b|\bAn error occurred \((?:AccessDenied(?:Exception)?|UnauthorizedOperation|UnauthorizedAccess|UnrecognizedClientException|InvalidClientTokenId|AuthFailure|AuthorizationError)\) when calling\b|\bThe security token included in the request is (?:invalid|expired)\b|\bUnable to get ACTIONS_ID_TOKEN_REQUEST_URL\b|\bYou do not currently have an active account selected\b|\bDefaultCredentialsError\b|\bAADSTS\d{5,}\b/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Zero-shot (deps): JavaScript package managers that cannot get a dependency. npm 7-10 E404
  // (`npm ERR! 404 Not Found - GET …`, `npm error 404  'x@*' is not in this registry`,
  // https://docs.npmjs.com/cli/v10/using-npm/registry), EINTEGRITY, socket timeouts and Node's TLS
  // codes, npm/Yarn 1/pnpm engine checks
  // (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#engines; `npm WARN EBADENGINE`
  // is only a warning, and so is Yarn 1's `info` about an optional dependency's engine), Yarn 1's
  // registry misses, Yarn Berry's YN0001/YN0035/YN0018/YN0028
  // (https://yarnpkg.com/advanced/error-codes) and pnpm's ERR_PNPM_* codes
  // (https://pnpm.io/errors; at the line start, as pnpm's `WARN … error (ERR_PNPM_FETCH_404). Will
  // retry …` is a retry, not the failure; pnpm 10 and later bracket the code, and refuse to finish
  // an install whose dependencies' build scripts were not approved, `[ERR_PNPM_IGNORED_BUILDS]
  // Ignored build scripts: esbuild@0.21.5`, https://pnpm.io/settings#strictdepbuilds).
  {
    re: /\bnpm (?:ERR!|error) 404 Not Found - GET |\bnpm (?:ERR!|error) 404 +'[^']+' is not in (?:this|the npm) registry|\bnpm (?:ERR!|error) (?:code (?:EBADENGINE|EINTEGRITY)\b|notsup )|\bintegrity checksum failed when using sha\d+|\b(?:ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN|CERT_HAS_EXPIRED)\b|^error \S+: The engine "[^"]+" is incompatible with this module\b|\bCouldn't find package "[^"]+"(?: required by "[^"]+")? on the "[^"]+" registry|\bCouldn't find any versions for "|\bRequest failed \\?"(?:404|5\d\d) |\bYN0\d{3}: .*(?:No candidates found|Package not found|The remote server failed to provide the requested resource|Response Code: (?:404|5\d\d)\b|doesn't match the expected checksum|The lockfile would have been modified by this install)|^\s*\[?ERR_PNPM_(?:FETCH_(?:404|5\d\d)|NO_MATCHING_VERSION\w*|NO_VERSIONS|PEER_DEP_ISSUES|UNSUPPORTED_ENGINE|TARBALL_INTEGRITY|META_FETCH_FAIL|LOCKFILE_MISSING_DEPENDENCY|LOCKFILE_BREAKING_CHANGE|IGNORED_BUILDS)\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (deps): other language package managers. PubGrub's explanation in Dart pub and
  // Poetry (`So, because … version solving failed.`, https://dart.dev/tools/pub/cmd/pub-get) and
  // uv (`× No solution found when resolving dependencies`, https://docs.astral.sh/uv/reference/troubleshooting/),
  // pip's wheel builds, hashes, Python version and index errors
  // (https://pip.pypa.io/en/stable/topics/dependency-resolution/), Poetry's stale lock file,
  // conda's HTTP errors, Bundler's resolver and sources (https://bundler.io/guides/troubleshooting.html),
  // Composer's root requirements and stale lock file (https://getcomposer.org/doc/articles/troubleshooting.md),
  // Maven's unresolvable POMs and plugins, Gradle's 5xx from a repository, sbt's ResolveException,
  // Go's module proxy 404/410, `git ls-remote` failures and missing module for a package
  // (https://go.dev/ref/mod#resolve-pkg-mod), Cargo's dependency loading, stale Cargo.lock and
  // rust-version (https://doc.rust-lang.org/cargo/reference/rust-version.html), NuGet NU1xxx-NU13xx
  // (https://learn.microsoft.com/nuget/reference/errors-and-warnings), SwiftPM, R's unavailable
  // dependencies, Mix's unchecked dependencies, cpanm and Perl's `Can't locate … in @INC`, Conan's
  // remotes, Bazel's external repositories (https://bazel.build/external/overview), and
  // Terraform's providers and dependency lock file
  // (https://developer.hashicorp.com/terraform/language/files/dependency-lock), and Bundler refusing
  // a gem the Gemfile lacks (`pg is not part of the bundle. Add it to Gemfile.`, as Rails prints it
  // for a database adapter, https://github.com/rubygems/rubygems/blob/master/bundler/lib/bundler/rubygems_integration.rb).
  {
    re: /^\s*(?:So, )?[Bb]ecause .*(?:version solving failed|\bis forbidden\b|which doesn't match any versions)|\bNo solution found when resolving dependencies\b|\bFailed building wheel for\b|\bTHESE PACKAGES DO NOT MATCH THE HASHES\b|\brequires a different Python: |\bHTTP error (?:404|5\d\d) while getting\b|changed significantly since poetry\.lock was last generated|\bCondaHTTPError\b|\bBundler could not find compatible versions for gem\b|but that version could not be found in any of the sources\b|\bCould not find [\w.-]+-\d[\w.-]* in (?:locally installed gems|any of the sources)\b|\bCould not find 'bundler' \(|\bCould not reach host \S+\. Check your network connection\b|\bRoot composer\.json requires\b.*(?:could not be found|does not (?:match|satisfy))|Your lock file does not contain a compatible set of packages|\bNon-resolvable (?:parent|import) POM\b|\bor one of its dependencies could not be resolved\b|\bCould not (?:GET|HEAD) '[^']+'\. Received status code (?:404|5\d\d)\b|\bResolveException: |^go(?: \w+)?: .*: reading https?:\/\/\S+: (?:404 Not Found|410 Gone)\b|^go(?: \w+)?: .*\bgit ls-remote -q origin in \S+: exit status 128\b|\bno required module provides package\b|\bcannot find module providing package\b|\bfailed to get `[^`]+` as a dependency of\b|\bfailed to load source for dependency `|needs to be updated but --(?:locked|frozen) was passed\b|\bcannot be built because it requires rustc \S+ or newer\b|\berror NU1[0-3]\d\d\b|\bDependencies could not be resolved because\b|\bdependenc(?:y|ies) .* (?:is|are) not available for package\b|\bthe dependency is not available, run "mix deps\.get"|\bInstalling the dependencies failed: |\bCouldn't find module or a distribution\b|\bCan't locate \S+\.pm in @INC\b|\bUnable to find '[^']+' in remotes\b|\bAn error occurred during the fetch of repository '|\bFailed to query available provider packages\b|\bCould not retrieve the list of available versions for provider\b|\bFailed to install provider\b|\bInconsistent dependency lock file\b|\bis not part of the bundle\. Add it to (?:your )?Gemfile\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (deps): system packages and the network. apt's missing candidates, release files and
  // held packages (apt-get(8)), apk's `unable to select packages`
  // (https://wiki.alpinelinux.org/wiki/Alpine_Package_Keeper), pkg-config and Meson not finding a
  // library (https://mesonbuild.com/Dependencies.html), curl's network exit codes
  // (https://curl.se/libcurl/c/libcurl-errors.html: 5, 6, 7, 16, 18, 28, 35, 52, 55, 56, 60, 92;
  // exit 22 with a 404 is left alone: a download gone, or a health check of the job's own
  // service, only the command tells), wget's and urllib's 502/503/504 (a 500 may be the job's own
  // service), a proxy refusing CONNECT, Go's and .NET's TLS and DNS errors, GitHub's API rate
  // limit, and BuildKit/Docker failing to resolve a base image or reach the registry
  // (https://docs.docker.com/build/building/base-images/; a 401/403 there is an auth failure).
  {
    re: /\bhas no installation candidate\b|\bdoes not have a Release file\b|^E: Version '[^']+' for '[^']+' was not found|\bUnable to correct problems, you have held broken packages\b|^ERROR: unable to select packages:|\(no such package\)|\bwas not found in the pkg-config search path\b|^No package '[^']+' found\b|\bDependency "[^"]+" not found\b|(?:^|\s)curl: \((?:5|6|7|16|18|28|35|52|55|56|60|92)\) |^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR 50[234]: |\bReceived HTTP code \d{3} from proxy after CONNECT\b|\bHTTP Error (?:404|50[234]): |\bx509: certificate signed by unknown authority\b|\btls: failed to verify certificate\b|\bgnutls_handshake\(\) failed\b|\bThe remote name could not be resolved\b|\bNo such host is known\b|\bthe connected party did not properly respond after a period of time\b|\bAPI rate limit exceeded\b|\bfailed to resolve source metadata for \S+: (?!.*\b(?:40[13]|[Uu]nauthorized|denied|[Ff]orbidden)\b)|\bno matching manifest for \S+ in the manifest list\b|\brequest canceled while waiting for connection\b|\bClient\.Timeout exceeded while awaiting headers\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (deps): the job's own CI configuration. GitHub Actions rejecting a workflow, a called
  // workflow or an action reference, or a deprecated action it no longer runs
  // (https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions),
  // GitLab's `This GitLab CI configuration is invalid`, and a setup action asked for a version that
  // does not exist: setup-python, setup-node, setup-go, setup-java and setup-ruby (their sources'
  // errors, e.g. https://github.com/actions/setup-node/blob/main/src/distributions/base-distribution.ts).
  {
    re: /\bInvalid workflow file\b|\bThe (?:workflow|template) is not valid\b|\.ya?ml \(Line: \d+, Col: \d+\): |\berror parsing called workflow\b|\bUnable to resolve actions?\b|Can't find 'action\.yml', 'action\.yaml' or 'Dockerfile'|\bMissing download info for \S+@|\bbecause it uses a deprecated version of `|CI configuration is invalid\b|\bVersion \S+ with arch \S+ not found\b|\bThe version '[^']+' with architecture '[^']+' was not found\b|\bUnable to find (?:Node|Go) version '[^']+' for platform\b|\bCould not find satisfied version for [Ss]em[Vv]er\b|\bUnknown version \S+ for (?:ruby|jruby|truffleruby)\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (deps): a build or tool configuration that is missing or wrong. An npm/Yarn/pnpm
  // script that is not defined (https://docs.npmjs.com/cli/v10/commands/npm-run-script), no or an
  // unreadable package.json, `npm ci` without a lock file, the packageManager field naming another
  // tool (https://github.com/nodejs/corepack), Maven without or with a broken POM or an unknown
  // phase, a Gradle task that does not exist, a CMake source directory without CMakeLists.txt, pip
  // without requirements file or project, Poetry without pyproject.toml, pre-commit's config,
  // Compose's schema (https://docs.docker.com/reference/compose-file/), argparse, clap, Cobra,
  // commander and yargs usage errors (e.g. https://docs.python.org/3/library/argparse.html#exiting-methods),
  // Dockerfile syntax and a missing Dockerfile (https://docs.docker.com/reference/dockerfile/),
  // ESLint without its configuration, a plugin or a shared config it names
  // (https://eslint.org/docs/latest/use/troubleshooting/), linters given patterns that match
  // nothing, tsc without inputs, and pip refusing a distribution's Python (PEP 668,
  // https://packaging.python.org/en/latest/specifications/externally-managed-environments/).
  {
    re: /\b[Mm]issing script: |\bCouldn't find a script named "|^error Command "[^"]+" not found\.?$|^\s*\[?ERR_PNPM_(?:NO_SCRIPT|NO_IMPORTER_MANIFEST_FOUND|BAD_PM_VERSION)\b|\bCould not read package\.json\b|\bnpm (?:ERR!|error) code EJSONPARSE\b|can only install with an existing package-lock\.json|\bThis project is configured to use \w+ because\b|\b(?:Malformed|Non-parseable) POM\b|there is no POM in this directory|\bUnknown lifecycle phase "|\bTask '[^']+' not found in (?:root )?project\b|does not appear to contain CMakeLists\.txt|\bCould not open requirements file\b|\bis not installable\. Neither 'setup\.py' nor 'pyproject\.toml' found|\bPoetry could not find a pyproject\.toml file\b|\bInvalidConfigError\b|\bAdditional property \S+ is not allowed\b|\bno configuration file provided: not found\b|\berror: the following (?:arguments are required|required arguments were not provided): ?|\berror: argument [^:]+: (?:invalid \w+ value|expected (?:one|at least one) argument|invalid choice)|\berror: invalid value '[^']*' for '|\brequired flag\(s\) "[^"]+" not set\b|\bunknown command "[^"]+" for "|\berror: required option '[^']+' not specified\b|\berror: missing required argument '|^(?:ERROR: |Error: )?Missing required arguments?: \S|\b[Dd]ockerfile parse error (?:on )?line \d+|\bfailed to read dockerfile\b|unable to evaluate symlinks in Dockerfile path|\bNo ESLint configuration found\b|\bESLint couldn't find (?:an eslint\.config|a configuration file|the config "[^"]+" to extend from|the plugin ")|\bFailed to load (?:plugin '[^']+' declared in|config "[^"]+" to extend from|parser '[^']+' declared in)\b|\bNo files matching the pattern (?:"[^"]*" )?were found\b|\bNo inputs were found in config file\b|\berror: externally-managed-environment\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (deploy): deploy tools refusing the job's credentials, in their own words, above the
  // generic rules (which read `PERMISSION_DENIED` or `is forbidden` as nothing or a script error).
  // Kubernetes RBAC (`… is forbidden: User "…" cannot patch resource "deployments" …`, also inside
  // Helm's errors; a quota or PodSecurity `is forbidden` is not auth,
  // https://kubernetes.io/docs/reference/access-authn-authz/rbac/), kubectl without valid
  // credentials (`error: You must be logged in to the server (Unauthorized)`, client-go's exec
  // credential plugin failing, https://kubernetes.io/docs/reference/access-authn-authz/authentication/),
  // gcloud's `ERROR: (gcloud.run.deploy) PERMISSION_DENIED: …` and its auth commands
  // (https://cloud.google.com/sdk/docs/authorizing), the Azure CLI's `Please run 'az login' to
  // setup account.` and ARM's AuthorizationFailed (https://github.com/Azure/azure-cli/blob/dev/src/azure-cli-core/azure/cli/core/_profile.py,
  // https://learn.microsoft.com/azure/role-based-access-control/troubleshooting), azure/login,
  // STS's ExpiredTokenException, the Terraform AWS provider without credentials (`no valid
  // credential sources for Terraform AWS Provider found`, v5 `No valid credential sources found`,
  // https://registry.terraform.io/providers/hashicorp/aws/latest/docs#authentication-and-configuration),
  // the Google provider's `Attempted to load application default credentials since neither
  // 'credentials' nor 'access_token' was set` (quoted in backticks in the log,
  // https://registry.terraform.io/providers/hashicorp/google/latest/docs/guides/provider_reference#authentication),
  // HCP Terraform's `Error: Required token could not be found`
  // (https://developer.hashicorp.com/terraform/cli/commands/login), flyctl's and Vercel's CLIs
  // without a token (`No access token available. Please login with 'flyctl auth login'`, `No
  // existing credentials found. Please run 'vercel login'` with backticks,
  // https://vercel.com/docs/cli/login),
  // the Serverless Framework's `AWS provider credentials not found.`
  // (https://github.com/serverless/serverless/blob/main/lib/plugins/aws/provider.js), the Firebase
  // CLI's `Failed to authenticate, have you run firebase login?`
  // (https://github.com/firebase/firebase-tools/blob/master/src/auth.ts), Ansible's SSH login
  // refused (`UNREACHABLE! … Permission denied (publickey)`), become password and vault secrets
  // (https://docs.ansible.com/ansible/latest/vault_guide/vault_using_encrypted_content.html).
  {
    re: /\bis forbidden: User "[^"]*" cannot \w+ |\bYou must be logged in to the server\b|\bgetting credentials: exec: |^ERROR: \(gcloud[\w.-]*\) (?:PERMISSION_DENIED|UNAUTHENTICATED)\b|^ERROR: \(gcloud\.auth\.[\w.-]+\) |^ERROR: \(gcloud[\w.-]*\) .*\bdoes not have (?:permission to|any valid credentials)\b|\bThere was a problem refreshing your current auth tokens\b|\bPlease run 'az login' to setup account\b|^ERROR: \((?:AuthorizationFailed|InvalidAuthenticationToken\w*|ExpiredAuthenticationToken|AuthenticationFailed)\)|\bdoes not have authorization to perform action '|\bAz CLI Login failed\b|\bExpiredTokenException\b|\bno valid credential sources for Terraform AWS Provider found\b|\bNo valid credential sources found\b|\bAWS provider credentials not found\b|\bAttempted to load application default credentials since neither\b|^[\s│]*Error: Required token could not be found\b|\bNo access token available\. Please login with 'flyctl auth login'|\bNo existing credentials found\. Please run `vercel login`|\bFailed to authenticate, have you run\b|^fatal: \[[^\]]+\]: UNREACHABLE! .*\bPermission denied \(|\b(?:Missing|Incorrect) (?:sudo|become|su) password\b|^ERROR! (?:Attempting to decrypt but no vault secrets found|Decryption failed \(no vault secrets)/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Zero-shot (deploy): hosts and clusters a deploy cannot reach. Ansible's `fatal: [web1]:
  // UNREACHABLE! => {… "Failed to connect to the host via ssh: … Connection timed out" …}`
  // (https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_error_handling.html#ignoring-unreachable-host-errors;
  // a refused SSH key is auth, above) and Helm's `Error: Kubernetes cluster unreachable: Get
  // "https://…": dial tcp …` (https://helm.sh/docs/faq/troubleshooting/). Both with no kubeconfig at
  // all (`invalid configuration: no configuration has been provided`, or kubectl falling back to
  // `localhost:8080`, https://kubernetes.io/docs/tasks/access-application-cluster/configure-access-multiple-clusters/)
  // are the job's configuration: the kubeconfig was never written.
  {
    re: /Kubernetes cluster unreachable: (?:invalid configuration\b|Get "http:\/\/localhost:8080\/)|\bThe connection to the server localhost:8080 was refused\b/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  {
    re: /^fatal: \[[^\]]+\]: UNREACHABLE! |\bKubernetes cluster unreachable\b|\bThe connection to the server \S+ was refused - did you specify the right host or port\?/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (deploy): manifests, charts, HCL and playbooks the tools reject. kubectl's client-side
  // validation (`error validating data: ValidationError(Deployment.spec): unknown field …`, but not
  // `error validating data: failed to download openapi`, a cluster not reached) and the API
  // server's strict field validation (`… cannot be handled as a Deployment: strict decoding error:
  // unknown field "spec.replica"`, https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation),
  // `The Deployment "web" is invalid: …`, a kind the cluster does not serve (`no matches for kind
  // "Ingress" in version "extensions/v1beta1"`); Helm's template, parse, `required` and schema
  // errors, manifests it cannot build (https://helm.sh/docs/chart_template_guide/debugging/) and
  // `helm lint`'s verdict;
  // Terraform's HCL parse and type errors the older rule below does not list
  // (https://github.com/hashicorp/hcl/blob/main/hclsyntax/parser.go); Ansible's playbook errors
  // (`ERROR! Syntax Error while loading YAML.`, `ERROR! the role 'x' was not found in …`, `ERROR!
  // couldn't resolve module/action 'x'`, `ERROR! 'x' is not a valid attribute for a Play`,
  // https://github.com/ansible/ansible/blob/devel/lib/ansible/playbook/base.py); the Firebase CLI
  // outside a project (`Not in a Firebase app directory (could not locate firebase.json)`);
  // CloudFormation rejecting a template (`An error occurred (ValidationError) when calling the
  // CreateStack operation: Template format error: …`,
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html).
  {
    re: /\berror validating data: (?!failed to download openapi)|\bstrict decoding error: unknown field\b|\bcannot be handled as a \w+: |^The \w+ "[^"]*" is invalid: |^Error from server \(Invalid\): |\bno matches for kind "[^"]+" in version\b|^Error: (?:(?:INSTALLATION|UPGRADE) FAILED: )?(?:template: \S+:\d+:\d+: executing |parse error at \(|execution error at \(|unable to build kubernetes objects from release manifest: |values don't meet the specifications of the schema|chart requires kubeVersion: )|^Error: \d+ chart\(s\) linted, [1-9]\d* chart\(s\) failed|^[\s│]*Error: (?:Argument or block definition required|Invalid block definition|Unclosed configuration block|Missing newline after argument|Invalid character|Invalid multi-line string|Duplicate \w+ (?:configuration|definition)|Incorrect attribute value type|Invalid (?:for_each|count) argument|Unsupported Terraform Core version|Missing required provider)\b|^ERROR! (?:Syntax Error while loading YAML|the role '[^']+' was not found\b|couldn't resolve module\/action '|conflicting action statements\b|'[^']+' is not a valid attribute for a \w+|the field '[^']+' (?:is required but was not set|has an invalid value)|the playbook: \S+ could not be found|no (?:module\/)?action detected in task|We were unable to read either as JSON nor YAML|A malformed block was encountered)|\bNot in a Firebase app directory\b|\boperation: Template format error: /,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (deploy): a rollout that never became ready, a deploy or state locked by another run,
  // and migrations that failed: the job's own deploy step, not its configuration. kubectl rollout
  // status's `error: deployment "web" exceeded its progress deadline`
  // (https://github.com/kubernetes/kubectl/blob/master/pkg/polymorphichelpers/rollout_status.go),
  // Helm's `another operation (install/upgrade/rollback) is in progress`
  // (https://github.com/helm/helm/blob/main/pkg/action/action.go) and `rendered manifests contain a
  // resource that already exists` (an object left in the cluster by an earlier deploy that the
  // release does not own, https://github.com/helm/helm/blob/main/pkg/action/validate.go), Terraform's `Error acquiring the
  // state lock` (https://developer.hashicorp.com/terraform/language/state/locking; the older rule
  // below called it configuration) and a working directory never initialised (`Backend
  // initialization required`, `Module not installed`, https://developer.hashicorp.com/terraform/cli/commands/init),
  // Flyway's `Migration of schema "public" to version "2 - add index" failed!` and `Migration
  // V2__add_index.sql failed` (https://documentation.red-gate.com/fd/migrate-184127460.html),
  // Liquibase's `Migration failed for changeset` (https://docs.liquibase.com/commands/update/update.html),
  // Alembic's `FAILED: Target database is not up to date.` and its `ERROR [alembic.…]` log line
  // (https://github.com/sqlalchemy/alembic/blob/main/alembic/util/messaging.py; `FAILED:` would
  // otherwise read as a failing test), Django's migration graph errors
  // (https://docs.djangoproject.com/en/stable/topics/migrations/), Rails's pending migrations
  // (https://guides.rubyonrails.org/active_record_migrations.html) and Prisma Migrate's P3xxx
  // (https://www.prisma.io/docs/orm/reference/error-reference#prisma-migrate-migration-engine);
  // the AWS CLI's waiters giving up (`Waiter ServicesStable failed: Max attempts exceeded`,
  // `Waiter StackCreateComplete failed: … "ROLLBACK_COMPLETE"`,
  // https://docs.aws.amazon.com/cli/latest/reference/ecs/wait/services-stable.html) and
  // CloudFormation refusing to update a stack that failed (`… is in ROLLBACK_COMPLETE state and
  // can not be updated`; its `No updates are to be performed.` is left alone: scripts often print
  // and then ignore it).
  {
    re: /\bexceeded its progress deadline\b|\banother operation \(install\/upgrade\/rollback\) is in progress\b|\brendered manifests contain a resource that already exists\b|\bError acquiring the state lock\b|^[\s│]*Error: (?:Backend initialization required|Module not installed|Required plugins are not installed)\b|\bMigration of schema .* failed!|^ERROR: Migration \S+ failed\b|^ERROR: Validate failed: |\bMigration failed for changeset\b|^ERROR \[alembic\.[\w.]+\] |^\s*FAILED: (?:Target database is not up to date|Can't locate revision|Multiple head revisions|Multiple heads are present|Current revision \S+ does not match|No such revision|Requested revision|Path doesn't exist|No config file)|\bdjango\.db\.migrations\.exceptions\.\w+|\bConflicting migrations detected\b|\bActiveRecord::PendingMigrationError\b|\bMigrations are pending\. To resolve this issue\b|\ball later migrations canceled\b|^Error: P3\d{3}\b|\bWaiter \w+ failed: |\bis in \w+_(?:COMPLETE|FAILED|IN_PROGRESS) state and can not be updated\b/,
    score: 88,
    kind: 'error',
    category: 'script_error',
  },
  // A program that cannot load a library or package it was built against, and remote fetches
  // that failed (git/curl): dependency problems, whatever the wording.
  {
    re: /ImportError: .*undefined symbol|cannot open shared object file|error while loading shared libraries|Error: Cannot find module '[^./]|\bunable to access '[^']+': |The requested URL returned error: 5\d\d|\b(?:[Cc]ouldn't|[Cc]ould not|[Uu]nable to|[Ff]ailed to) (?:download|fetch)\b|\bcould not fetch content\b/,
    score: 91,
    kind: 'error',
    category: 'dependency_network',
  },
  // A full disk explains every failure after it.
  {
    re: DISK_FULL,
    score: 93,
    kind: 'error',
    category: 'script_error',
  },
  // Git refusing a checkout owned by another user (safe.directory).
  {
    re: /\bunsafe repository \(|detected dubious ownership in repository/,
    score: 91,
    kind: 'error',
    category: 'permission_auth',
  },
  // Package managers that could not install what the lock file or manifest asks for: a lock file out
  // of date (npm ci, yarn --frozen-lockfile, pnpm), go.mod needing updates, Composer's and Poetry's
  // solvers, a Rust crate's or Python package's native build (usually a missing system library).
  {
    re: /\bERR_PNPM_OUTDATED_LOCKFILE\b|\blockfile needs to be updated\b|`npm ci` can only install packages when your package\.json and package-lock\.json|\bupdates to go\.mod needed\b|Your requirements could not be resolved to an installable set of packages|\bSolverProblemError\b|failed to run custom build command for `|Failed to build installable wheels|Could not build wheels for|\bsubprocess-exited-with-error\b|\bmetadata-generation-failed\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // GitLab refusing an artifacts archive over the instance's size limit: `artifacts:paths` or the
  // limit need changing (the runner's message: https://gitlab.com/gitlab-org/gitlab/-/issues/472984).
  {
    re: /\b413 Request Entity Too Large\b|\btoo large archive\b/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // A JVM that cannot get the heap it was told to use, and Gradle's daemon dying under it.
  {
    re: /Could not reserve enough space for (?:object heap|\d+KB object heap)|Gradle build daemon disappeared unexpectedly/,
    score: 96,
    kind: 'error',
    category: 'oom_killed',
  },
  // Memory and kills: the compiler driver losing cc1plus to the kernel's OOM killer, C++ allocation
  // failure.
  {
    re: /\bfatal error: Killed signal terminated program\b|\bstd::bad_alloc\b/,
    score: 96,
    kind: 'error',
    category: 'oom_killed',
  },
  // Memory and kills.
  {
    re: /\b(?:OOMKilled|oom[-_ ]kill(?:ed|er)?|out of memory|Cannot allocate memory|JavaScript heap out of memory|MemoryError\b|java\.lang\.OutOfMemoryError|GC overhead limit exceeded|exit code 137|exit status 137|Killed\s*$|\bKilled process\b|memory limit)/i,
    score: 96,
    kind: 'error',
    category: 'oom_killed',
  },
  // The shell reporting that it lost a child to SIGKILL (`bash: line 12:  4242 Killed   npm run build`).
  {
    re: /(?:^|: )\s*\d+ Killed {2,}\S/,
    score: 96,
    kind: 'error',
    category: 'oom_killed',
  },
  // Zero-shot (tests): test runners' own verdicts on a failing test, written from each runner's
  // documented output or the source that prints it, so that logs of runners our corpus lacks are
  // called test failures rather than script errors (or nothing). Python unittest's `ERROR: test_x
  // (pkg.Case.test_x)` (https://github.com/python/cpython/blob/main/Lib/unittest/runner.py),
  // GoogleTest's `[  FAILED  ] Suite.Test` and `file:12: Failure`
  // (https://google.github.io/googletest/primer.html), XCTest's
  // `file:12: error: -[Case testX] : XCTAssertEqual failed` and `Test Case '…' failed (`
  // (https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift),
  // swift-testing's `✘ Test x() recorded an issue at`
  // (https://github.com/swiftlang/swift-testing/blob/main/Sources/Testing/Events/Recorder/Event.HumanReadableOutputRecorder.swift),
  // Playwright's list and line reporters `✘  1 [chromium] › a.spec.ts:3:5 › title`, `1) [chromium] ›
  // a.spec.ts:3:5 › title ──` (https://playwright.dev/docs/test-reporters), Karma's `<browser>
  // <spec> FAILED` (https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js),
  // Julia's `Test Failed at file.jl:12` (https://docs.julialang.org/en/v1/stdlib/Test/), Catch2's
  // `file.cpp:12: FAILED:` (https://github.com/catchorg/Catch2/blob/devel/docs/tutorial.md),
  // Boost.Test's `file.cpp(8): error: in "case": check … has failed`
  // (https://www.boost.org/doc/libs/release/libs/test/doc/html/boost_test/testing_tools.html) and
  // testthat's `── Failure (test-a.R:12:3): title ──` (https://testthat.r-lib.org/), ScalaTest's `- name
  // *** FAILED ***` (https://www.scalatest.org/user_guide/using_scalatest_with_sbt), Deno's `name ...
  // FAILED (2ms)` (https://github.com/denoland/deno/blob/main/tests/testdata/test/fail.out), Dart's
  // `00:01 +0 -1: name [E]` (load failures excepted: a compile error follows them,
  // https://github.com/dart-lang/test/blob/master/pkgs/test_core/lib/src/runner/reporter/expanded.dart)
  // and hspec's `name FAILED [1]`
  // (https://github.com/hspec/hspec/blob/main/hspec-core/src/Test/Hspec/Core/Formatters/V2.hs).
  {
    re: /^(?:ERROR|FAIL): \w+ \([\w.]+\)|^\[ {2}FAILED {2}\] |^\S+(?::\d+|\(\d+\)): Failure\s*$|^Test Case '[^']+' failed \(|: error: (?:-\[[\w.]+ test\w*\]|[\w.]+\.test\w*) : |^\s*✘ +(?:\d+ (?:\[[^\]]*\] › )?\S+:\d+:\d+ › |(?:Test|Suite) .* (?:recorded an issue at|failed after) )|^\s*\d+\) (?:\[[^\]]*\] › )?\S+:\d+:\d+ › |^Test Failed at \S+:\d+|^\S+(?::\d+|\(\d+\)): FAILED:\s*$|\(\d+\): (?:fatal )?error: in "[^"]*": |^── (?:Failure|Error) \(|^(?:\[info\] )?- .+ \*\*\* FAILED \*\*\*| \.\.\. FAILED \([\d.]+m?s\)\s*$|^\d\d:\d\d \+\d+(?: ~\d+)?(?: -\d+)?: (?!loading ).* \[E\]\s*$|\S FAILED \[\d+\]\s*$|^\s*(?:Chrome|Chromium|HeadlessChrome|Firefox|Safari|Edge|Electron|Opera|PhantomJS|IE)\b[\w ]* \d+(?:\.\d+)* \([^)]*\) .* FAILED\s*$/,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (tests): the assertion Jest and Playwright print under a failing test
  // (`expect(received).toBe(expected) // Object.is equality`,
  // https://jestjs.io/docs/expect; `Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)`,
  // https://playwright.dev/docs/test-assertions): a test's own assertion, not a script's timeout. And
  // XCTest's assertion message where a formatter (xcpretty, xcbeautify) dropped the `file: error:` prefix.
  {
    re: /\bexpect\((?:received|locator|page|value|jest\.fn\(\)|spy|string)\)\.(?:not\.|resolves\.|rejects\.)*to[A-Z]\w*\(|\bXCT(?:Assert\w*|Unwrap) failed: /,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (tests): CTest's per-test verdict (`1/2 Test #1: name ....***Failed  0.01 sec`,
  // `Subprocess aborted***Exception:`, `***Timeout`) and its list after `The following tests FAILED:`
  // (`\t  1 - name (Failed)`), https://cmake.org/cmake/help/latest/manual/ctest.1.html and
  // https://github.com/Kitware/CMake/blob/master/Source/CTest/cmCTestRunTest.cxx. They only say that
  // a test failed (its output is elsewhere), so they score below the run's `N% tests passed, N tests
  // failed out of M`, which is what a reader quotes; they still vote for a test failure.
  {
    re: /^\s*\d+\/\d+ Test +#\d+: .*\*\*\*(?:Failed|Exception|Timeout)\b|^\s*\d+ - \S+ \((?:Failed|Timeout|SEGFAULT|OTHER_FAULT|BUS_ERROR|Subprocess aborted|Child aborted|Exception)\)\s*$/,
    score: 83,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (tests): run summaries that count failures; each needs a non-zero count, so the same
  // summary of a passing run (`Passed!  - Failed: 0`, `with 0 failures`, `Ran 12 tests`) does not
  // vote. PHPUnit's `FAILURES!` / `ERRORS!` and `Tests: 3, Assertions: 5, Failures: 1.`
  // (https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php),
  // dotnet test / VSTest's `Failed!  - Failed: 1, Passed: …` and `Test Run Failed.`, the testing
  // platform's `Test run summary: Failed!` (https://learn.microsoft.com/dotnet/core/tools/dotnet-test),
  // Karma's `Executed 3 of 3 (1 FAILED)` and `TOTAL: 1 FAILED, 2 SUCCESS`, XCTest's `Test Suite
  // 'All tests' failed at` and `Executed 3 tests, with 1 failure (0 unexpected)`, hspec's and
  // Jasmine's `1 example, 1 failure` / `3 specs, 1 failure` (hspec's V2.hs above,
  // https://github.com/jasmine/jasmine-npm/blob/main/lib/reporters/console_reporter.js), ScalaTest's
  // `*** 1 TEST FAILED ***` and sbt's `TestsFailedException`
  // (https://www.scalatest.org/user_guide/using_scalatest_with_sbt), Dart's `Some tests failed.`
  // (expanded.dart above), Deno's `error: Test failed` (fail.out above), Boost.Test's `*** 1 failure is detected
  // in the test module`, Catch2's `test cases: 2 | 1 passed | 1 failed`, testthat's
  // `[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]`, Vitest's per-file line `❯ src/a.test.ts (3 tests | 1 failed)`
  // (https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts) and the
  // NUnit console's `Test Count: 10, Passed: 2, Failed: 4` / `Failed Tests - Failures: 1, Errors: 1`
  // (https://docs.nunit.org/articles/nunit/running-tests/Console-Runner.html).
  {
    re: /^(?:FAILURES|ERRORS)!\s*$|^Tests: \d+, Assertions: \d+, .*\b(?:Errors|Failures): [1-9]|^\s*Failed!\s+- Failed:\s+[1-9]|^Test Run Failed\.\s*$|\bTest run summary: Failed!|\bExecuted \d+ of \d+ \([1-9]\d* FAILED\)|^TOTAL: [1-9]\d* FAILED, \d+ SUCCESS|^Test Suite '[^']+' failed at |\bExecuted \d+ tests?, with [1-9]\d* failures? \(|\b\d+ (?:examples?|specs?), [1-9]\d* failures?\b|\*\*\* [1-9]\d* TESTS? FAILED \*\*\*|\bsbt\.TestsFailedException\b|: Some tests failed\.\s*$|^error: Test failed\s*$|\*\*\* [1-9]\d* failures? (?:is|are) detected in the test module\b|^(?:test cases|assertions):\s+\d+ \|.*\| [1-9]\d* failed\b|\[ FAIL [1-9]\d* \| WARN \d+|\(\d+ tests? \| [1-9]\d* failed(?: \| \d+ skipped)?\)|^\s*Test Count: \d+, Passed: \d+, Failed: [1-9]|\bFailed Tests - Failures: (?:[1-9]|\d+, Errors: [1-9])/,
    score: 84,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (tests): headings runners print only when tests failed, above the list of them: CTest's
  // `The following tests FAILED:`, RSpec's `Failed examples:`
  // (https://rspec.info/features/3-12/rspec-core/command-line/), Maven Surefire 2's and sbt's
  // `Failed tests:` and `Tests in error:` (https://maven.apache.org/surefire/maven-surefire-plugin/).
  // A bare `Failures:` heading stays without a category: many tools print it for other things.
  {
    re: /^The following tests FAILED:\s*$|^Failed examples:\s*$|^(?:\[error\] )?Failed tests:|^Tests in error:/,
    score: 82,
    kind: 'summary-header',
    category: 'test_failure',
  },
  // A test's own timeout is a test failure, not a job timeout.
  {
    re: /Timed out retrying|Exceeded timeout of \d+ ?(?:ms|s|seconds?)\b|Timeout of \d+\s?ms exceeded|Timeout \d+\s?ms exceeded|Test timed out|test timed out after/i,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Something else timed out: an error, but not the `timeout` category, which means the CI system
  // stopped the job (the rules above); a harness's or a script's own limit is what it was waiting for.
  {
    re: /\b(?:timed out|time ?out (?:exceeded|reached|after)|deadline exceeded|exceeded timeout|took longer than)/i,
    score: 88,
    kind: 'error',
    category: 'script_error',
  },
  // Infrastructure-as-code configuration.
  {
    re: /Error: (?:Reference to undeclared|Unsupported (?:argument|attribute|block type)|Invalid (?:reference|value|expression|function argument)|Missing required argument|Unknown variable|Error acquiring the state lock)|Error: .*\.tf line \d+/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // A tool invoked with options it does not accept, or a JDK older than the release the build
  // targets (javac's `invalid target release: 17`), or Meson given a value its option does not take
  // (`ERROR: Value "true" for combo option is not one of the choices.`,
  // https://github.com/mesonbuild/meson/blob/master/mesonbuild/options.py): the job's own
  // configuration is wrong.
  {
    re: /\berror: (?:unrecognized (?:command[- ]line )?(?:option|argument)s?|unknown (?:command[- ]line )?(?:option|flag)|unexpected argument)\b|Unable to find a destination matching|\binvalid destination specifier\b|\bCould not find \.travis\.yml\b|\bNo Rakefile found\b|\bCould not locate Gemfile\b|\bInput required and not supplied: |\binvalid (?:target|source) release: |\brelease version \d+ not supported\b|\bfor combo option is not one of the choices\b/i,
    score: 88,
    kind: 'error',
    category: 'config_yaml',
  },
  // A tool rejecting its own configuration file (golangci-lint's `Error: you are using a configuration
  // file for golangci-lint v2 with golangci-lint v1`, `Error: invalid configuration file …`).
  {
    re: /^(?:Error|ERROR|error|Fatal|FATAL)\b:?.{0,200}\bconfig(?:uration)? file\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Android's manifest merger refusing the app's manifests (AGP's `Manifest merger failed with
  // multiple errors, see logs`, https://developer.android.com/build/manage-manifests).
  {
    re: /\bManifest merger failed\b/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // An error diagnostic with a source position, in the forms analysers print besides the
  // compilers' own (`error • Undefined name 'x' • lib/a.dart:85:10 • undefined_identifier` from
  // `dart analyze` / `flutter analyze`, `error: … at src/a.kt:12:5`), also as Melos prints a
  // package's output, behind the package's name (`[app_core]:   error - lib/a.dart:9:7 - …`,
  // https://melos.invertase.dev/commands/exec).
  {
    re: /^\s*(?:\[[\w.-]+\]:\s+)?error\b.{0,300}?[\w./-]+\.[a-z]{1,6}:\d+:\d+/,
    score: 87,
    kind: 'error',
    category: 'compile_error',
  },
  // Nim's compiler, which names the file and position in parentheses (`vulkan_context.nim(25, 26)
  // Error: cannot open file: shaders/sdf.vert.spv`, https://nim-lang.org/docs/nimc.html).
  {
    re: /^\S+\.nim\(\d+, \d+\) Error: /,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Test runners' verdicts in their own words: gotestsum's summary (`DONE 147 tests, 127 skipped, 13
  // failures in 549.009s`, https://github.com/gotestyourself/gotestsum/blob/main/testjson/summary.go)
  // and Pester's failed tests and counts (`[-] Remove-BOM finds files 300ms (299ms|1ms)`, `Tests
  // Passed: 10, Failed: 17, Skipped: 0, NotRun: 0`, https://pester.dev/docs/usage/output); Pester
  // 5's failed-test line ends with its timings, which other `[-]` lines (scripts' own markers) lack.
  {
    re: /^DONE \d+ tests?(?:, \d+ skipped)?(?:, [1-9]\d* failures?|, \d+ failures?, [1-9]\d* errors?|, [1-9]\d* errors?) in [\d.]+s$|^\s*\[-\] \S.* \d+(?:\.\d+)?m?s \(\d+(?:\.\d+)?m?s\|\d+(?:\.\d+)?m?s\)$|^Tests Passed: \d+, Failed: [1-9]\d*/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // A download that never got an answer: curl's `%{http_code}` is `000` when no HTTP response came
  // back (https://everything.curl.dev/usingcurl/verbose/writeout.html), as deploy health checks
  // print it (`Health check attempt 5/5 failed (HTTP 000)`), and CMake's downloads (FetchContent,
  // ExternalProject) report `error: downloading 'https://…' failed` with curl's status, also as
  // MSBuild relays them (`CUSTOMBUILD : error : downloading '…' failed`,
  // https://cmake.org/cmake/help/latest/module/ExternalProject.html).
  {
    re: /\b(?:HTTP|[Ss]tatus|[Cc]ode)\)?[ :=]{0,3}(?:\w+ )?0{3,}\b(?!\.)|\berror ?: downloading '[^']+' failed\b|\bThe requested URL returned error ?: 5\d\d\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // CMake's find_package finding no package (`Could not find a package configuration file provided
  // by "Catch2" with any of the following names:`, https://cmake.org/cmake/help/latest/command/find_package.html):
  // a dependency the job did not install, not the code.
  {
    re: /\bCould not find a package configuration file provided by "[^"]+"|\bBy not providing "Find[\w.-]+\.cmake" in CMAKE_MODULE_PATH\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Settings the application refuses at start: .NET's connection-string parser (`Format of the
  // initialization string does not conform to specification starting at index 0.`,
  // https://learn.microsoft.com/dotnet/api/system.data.common.dbconnectionstringbuilder) and a
  // program's own `Config file is not valid`.
  {
    re: /\bFormat of the initialization string does not conform to specification\b|\b[Cc]onfig(?:uration)? file is (?:not valid|invalid)\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // A tool's own configuration file missing (`FATAL ERROR: can't init: no west.yml found in
  // /w/config`, Zephyr's west, https://docs.zephyrproject.org/latest/develop/west/manifest.html;
  // `no tsconfig.json found`): the project's configuration, not the script.
  {
    re: /\b[Nn]o [\w.-]+\.(?:ya?ml|toml|json|ini|cfg|conf) (?:file )?(?:was )?found\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Quarkus validates Qute templates' type-safe expressions when it builds the application
  // (`io.quarkus.qute.TemplateException: Found incorrect expressions (1):`, `Parser error in
  // template [x.html] line 3: …`, https://quarkus.io/guides/qute-reference#typesafe_expressions):
  // a build-time check of the code, like a compiler's.
  {
    re: /\bqute\.TemplateException: (?:Found incorrect expressions|Parser error)\b/,
    score: 89,
    kind: 'error',
    category: 'compile_error',
  },
  // Flutter's report of an exception in a test (`══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK
  // ╞═══`, then `The following assertion was thrown running a test:` and the message on the next
  // line, https://github.com/flutter/flutter/blob/master/packages/flutter/lib/src/foundation/assertions.dart):
  // the lead-in keeps the message, which has no error word of its own.
  {
    re: /\bEXCEPTION CAUGHT BY [A-Z][A-Z ]+[A-Z]\b|^The following .{1,160} was thrown (?:running a test|while [^:]{1,80}|during [^:]{1,80}):$/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Flutter asked to build for a platform the project has no scaffolding for (`This project is not
  // configured for the web.`, `No Linux desktop project configured.`,
  // https://github.com/flutter/flutter/tree/master/packages/flutter_tools/lib/src/commands): the
  // project's configuration, fixed by `flutter create . --platforms …`.
  {
    re: /^This project is not configured for the \w+\.|^No (?:Linux|macOS|Windows) desktop project configured\b/,
    score: 89,
    kind: 'error',
    category: 'config_yaml',
  },
  // Config / YAML.
  {
    re: /(?<![.\w])(?:yaml|yml)\b.*\b(?:error|invalid|cannot|could not|unexpected|failed)|mapping values are not allowed|did not find expected (?:key|node|-)|found character that cannot start any token|could not find expected ':'|jobs?:?\S* config (?:should|contains)|(?:unknown|invalid) (?:keys?|configuration)\b|is not defined in the configuration|Invalid configuration|\bconfig(?:uration)? error\b|yaml\.(?:parser\.ParserError|scanner\.ScannerError)|(?:ParserError|ScannerError): while (?:parsing|scanning)/i,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // Permission / auth in other words: git hosting refusing a push, HTTP 401/403 as curl, Python
  // requests and npm (E401/E403) report them, and as actions report an API call's status
  // (softprops/action-gh-release's `⚠️ GitHub release failed with status: 403`,
  // https://github.com/softprops/action-gh-release/blob/master/src/github.ts).
  {
    re: /\bPermission to \S+ denied to\b|The requested URL returned error: 40[13]\b|\b40[13] Client Error\b|\bnpm (?:ERR!|error) code E40[13]\b|\bHTTP(?:\/[\d.]+)? 40[13]\b|\bfailed with status:? 40[13]\b/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Permission / auth.
  {
    re: /\b(?:Permission denied|EACCES|EPERM|access denied|java\.nio\.file\.AccessDeniedException|403 Forbidden|401 Unauthorized|HTTP (?:Basic: )?Access denied|authentication (?:failed|required)|unauthorized: |denied: (?:requested access|access forbidden)|could not read Username|Invalid (?:username or password|credentials|token)|not authorized|insufficient_scope|Bad credentials|status code:? 40[13]\b|Unauthorized \(401\)|Forbidden \(403\)|\b40[13] (?:Forbidden|Unauthorized)\b|pull access denied|requires authentication)/i,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Transfers cut off (git over HTTP, curl), registries rate-limiting anonymous pulls, and package
  // managers' own "cannot find that package" codes: NuGet NU1101/NU1102/NU1103, Bundler, webpack
  // resolving a bare package name, Gradle dependency coordinates, Maven transfers, CocoaPods specs,
  // R packages, Ant's <get>.
  {
    re: /\bRPC failed; (?:curl|HTTP)\b|\bearly EOF\b|\bremote end hung up unexpectedly|\bEmpty reply from server\b|\btoomanyrequests\b|\bpull rate limit\b|\b429 Too Many Requests\b|\berror NU1[01]\d\d\b|\bBundler::GemNotFound\b|\bCould not find gem\b|Can't resolve '[^./']|(?:^|> )\s*Could not (?:find|resolve) (?:[\w.-]+:[\w.-]+(?::[\w.-]+)?|project :[\w:.-]+)\.?\s*$|\bcannot load such file\b|\bcomputed checksums? did NOT match\b|\bCould not transfer artifact\b|None of your spec sources contain a spec satisfying|could not find compatible versions for pod|\bPackages? required but not available\b|\bthere is no package called\b|\bError (?:getting|downloading) https?:|\bUnsupportedClassVersionError\b|compiled by a more recent version of the Java Runtime/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Network and dependency resolution.
  {
    re: /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ENETUNREACH|Could not resolve host|Connection refused|Connection reset|Temporary failure in name resolution|Temporary failure resolving|Name or service not known|network is unreachable|TLS handshake timeout|i\/o timeout|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out|socket hang up|(?:Failed|Unable) to connect to|Could(?: not|n't) (?:connect|create (?:a )?connection) to|Unable to establish (?:a )?connection|connection timed out|no such host|SSL certificate problem|certificate verify failed|no certificate subject alternative name matches|unable to get local issuer certificate|certificate has expired|Read timed out|Max retries exceeded|Connect(?:ion)? timeout|SSL connect error|handshake failure)/i,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  {
    re: /\b(?:ModuleNotFoundError|No module named|ERESOLVE|ETARGET|E404\b|No matching version found|Could not resolve dependencies|Could not resolve all (?:files|dependencies|artifacts)|could not find a version that satisfies|No matching distribution found|Failed to collect dependencies|unable to resolve dependency|version solving failed|unsatisfiable|conflicting (?:peer )?dependenc|failed to select a version|no matching package named|failed to download|failed to fetch|manifest unknown|not found: manifest|unknown revision|missing go\.sum entry|checksum mismatch|verifying .*: checksum mismatch|Could not find artifact|was not found in (?:https?:|any of the|the (?:registry|repositor|index|package))|ResolutionImpossible|PackagesNotFoundError|not available from current channels|Cannot find a version|dependency resolution failed|unresolved dependency: )/i,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (build): the job's own shell script failing, not compiled code: dash's `sh: 1: foo:
  // not found` (https://git.kernel.org/pub/scm/utils/dash/dash.git/tree/src/exec.c) and its
  // `1: Syntax error: "fi" unexpected`, bash's `line 12: syntax error near unexpected token `fi'`
  // and `unexpected EOF while looking for matching` (https://www.gnu.org/software/bash/manual/bash.html).
  // Above the compile rules, which read any "syntax error" as code.
  {
    re: /^\S+: (?:\d+|line \d+): [^\s:]+: (?:command )?not found\s*$|^(?:\S*\/)?(?:ba|da)?sh: [^\s:]+: (?:command )?not found\s*$|^\S+: (?:-c: )?line \d+: (?:syntax error(?: near unexpected token |: unexpected end of file)|unexpected EOF while looking for matching )|^\S+: \d+: (?:\S+: )?Syntax error: /,
    score: 87,
    kind: 'error',
    category: 'script_error',
  },
  // Zero-shot (build): dependencies that are not installed. Bundlers that cannot find a bare package
  // name (not a file of the project; `@/x` and `~/x` are the project's own path aliases): Vite/Rollup
  // `[vite]: Rollup failed to resolve import "x" from "src/main.ts".` (https://vite.dev/guide/build),
  // esbuild `✘ [ERROR] Could not resolve "x"` and `src/a.ts:1:2: ERROR: Could not resolve "x"`
  // (https://esbuild.github.io/api/#external). A library the linker cannot find (`/usr/bin/ld: cannot
  // find -lz`, Apple ld's `ld: library not found for -lz`), like configure's missing-library checks
  // (https://sourceware.org/binutils/docs/ld/Options.html). NuGet restore errors, all
  // dependency-graph problems: NU1605 `Warning As Error: Detected package downgrade`
  // (https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1605), NU1608 outside a
  // constraint, NU1301 a feed that cannot be reached, NU190x vulnerable packages.
  {
    re: /^(?:\[vite(?::[\w-]+)?\]:? )?Rollup failed to resolve import "(?![./~]|@\/)|^(?:✘ \[ERROR\]|\S+:\d+:\d+: ERROR:) Could not resolve "(?![./~]|@\/)|^\S*ld(?:\.\w+)?: cannot find -l\S|^ld: library (?:not found for -l\S|'[^']+' not found)|\berror NU1\d{3}\b/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  // Zero-shot (build): the build invoked or configured wrongly: MSBuild's command-line errors MSB1xxx
  // (`MSBUILD : error MSB1009: Project file does not exist.`,
  // https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb1009), Gradle's build script
  // failing (`A problem occurred evaluating root project`, Kotlin DSL `Script compilation error:`,
  // https://docs.gradle.org/current/userguide/troubleshooting.html).
  {
    re: /^MSBUILD : error MSB1\d{3}:|^\s*(?:> )?(?:A problem occurred evaluating (?:root )?project\b|Script compilation errors?:)/,
    score: 88,
    kind: 'error',
    category: 'config_yaml',
  },
  // Zero-shot (build): compilers, build drivers and bundlers whose error lines the rules below do not
  // know. GHC `Main.hs:5:7: error: [GHC-88464]`, the message on the next lines
  // (https://errors.haskell.org/messages/GHC-88464). OCaml `Error: Unbound value foo`
  // (https://ocaml.org/manual/latest/comp.html; the `File "a.ml", line 12, characters 4-9:` above it
  // also heads warnings, so it is only kept as context). The Dart front end `lib/a.dart:12:5: Error: …`
  // (https://dart.dev/tools/dart-compile) and Flutter's `Target kernel_snapshot failed`. Elixir `**
  // (CompileError) lib/a.ex:12: …` (https://hexdocs.pm/elixir/CompileError.html). clang's driver
  // `clang: error: linker command failed with exit code 1` and Apple ld's `symbol(s) not found`
  // (https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8). Maven's compiler plugin `Compilation
  // failure` (https://maven.apache.org/plugins/maven-compiler-plugin/), the Kotlin Gradle plugin's
  // `Compilation error. See log for more details` and Gradle's compile tasks in `What went wrong`.
  // Bazel's `ERROR: /src/BUILD:12:10: Compiling a.cc failed: (Exit 1)` (https://bazel.build/run/build).
  // MSBuild's other MSB#### errors (https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb4057),
  // not MSB3073 (a command's exit code) nor MSB4019/MSB4236 (an SDK not installed). webpack's `Module not
  // found: Error: Can't resolve './Foo' in '/src'` for a file of the project
  // (https://webpack.js.org/configuration/resolve/); a relative import esbuild or Rollup cannot
  // resolve; esbuild's other compile diagnostics (`✘ [ERROR] Expected …`, `Unexpected …`,
  // https://esbuild.github.io/api/#build; wrangler prints its own errors as `✘ [ERROR]` too, so only
  // esbuild's wordings count). ninja's failed
  // edge `FAILED: a.o` (https://github.com/ninja-build/ninja/blob/master/src/status_printer.cc).
  // xcodebuild's failed commands list (`\tCompileSwift normal arm64 /src/A.swift`, since Xcode 13
  // `… (in target 'App' from project 'App')`: https://github.com/duemunk/Async/issues/107,
  // https://github.com/nisargjhaveri/vscode-ios-debug/issues/14).
  {
    re: /^\S+\.l?hs:(?:\d+:\d+(?:-\d+)?|\(\d+,\d+\)-\(\d+,\d+\)): error:(?:\s|$)|^<no location info>: error:|^Error \(warning \d+[^)]*\): |^Error: (?:Unbound (?:value|module|type|constructor|record field|class)|This (?:expression|pattern) has type|Syntax error|Signature mismatch|The implementation \S+ does not match|Some record fields are undefined)|^\S+\.dart:\d+:\d+: Error: |\bTarget kernel_snapshot\w* failed\b|^\*\* \((?:CompileError|SyntaxError|TokenMissingError|MismatchedDelimiterError)\) |^(?:\S+: )?error: linker command failed with exit code |^ld: symbol\(s\) not found for architecture|^error: unknown type name |: Compilation failure\b|^\s*(?:> )?Compilation error\. See log for more details|Execution failed for task '[^']*:(?:compile|kapt|ksp)\w*'|^ERROR: \S+:\d+:\d+: (?:Compiling|Linking|Building|GoCompilePkg|GoLink|KotlinCompile|SwiftCompile)\b.* failed: |\berror MSB(?!3021|3026|3027|3073|3644|4019|4236)\d{4}:|Module not found: (?:Error: )?Can't resolve '[./]|\bCould not resolve ["']\.|^(?:\[vite(?::[\w-]+)?\]:? )?Rollup failed to resolve import "[./~@]|^✘ \[ERROR\] (?:Expected |Unexpected |No matching export |Could not resolve |Unterminated |The symbol |Multiple exports |Transforming |Cannot |Top-level await |Invalid |Syntax |Duplicate |Missing )|^\S+:\d+:\d+: ERROR: |^FAILED: (?:\[code=\d+\] )?(?:\S+\.(?:o|obj|a|so|lib|dll|dylib|exe|pch|gch)\b|\S*CMakeFiles\/)|^\t(?:CompileSwift|SwiftCompile|CompileSwiftSources|SwiftEmitModule|EmitSwiftModule|PrecompileSwiftBridgingHeader|CompileC|Ld|CompileStoryboard|CompileXIB|CompileAssetCatalog\w*) .*(?:\(in target '|\bnormal (?:arm|x86_64))/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (build): Gradle's test task failing (`> There were failing tests. See the report at:`,
  // https://docs.gradle.org/current/userguide/java_testing.html), in its `What went wrong` block;
  // Maven Surefire's goal failure (`Failed to execute goal …maven-surefire-plugin:3.2.5:test
  // (default-test) on project x: There are test failures.`,
  // https://maven.apache.org/surefire/maven-surefire-plugin/examples/skipping-tests.html) and the
  // `There were test failures` other runners' build plugins throw (sbt's, gulp-mocha's, jmeter-maven's).
  {
    re: /\bThere (?:are|were) test failures\b|^\s*(?:> )?There were failing tests\. See the report at\b|Execution failed for task '[^']*:(?!\w*(?:Report|Coverage))(?:test|\w*Test)\w*'/,
    score: 86,
    kind: 'error',
    category: 'test_failure',
  },
  // Zero-shot (build): type checkers', linters' and formatters' verdicts and other output shapes:
  // mypy `Found 3 errors in 2 files (checked 10 source files)`
  // (https://mypy.readthedocs.io/en/stable/running_mypy.html), tsc `Found 3 errors in 2 files.`,
  // ruff `Found 3 errors.` (https://docs.astral.sh/ruff/linter/), pyright `3 errors, 0 warnings, 0
  // informations`, svelte-check; ESLint's `--max-warnings`
  // (https://eslint.org/docs/latest/use/command-line-interface#--max-warnings), its compact and unix
  // formatters (https://eslint.org/docs/latest/use/formatters/) and `next lint`'s `12:5  Error:
  // message  rule` (https://nextjs.org/docs/app/api-reference/config/eslint); formatters in check
  // mode: black's `1 file would be reformatted` and `error: cannot format a.py: Cannot parse`
  // (https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html), ruff format's
  // `Would reformat: a.py` (https://docs.astral.sh/ruff/formatter/), isort's `ERROR: a.py Imports
  // are incorrectly sorted` (https://pycqa.github.io/isort/), and the files Prettier --check lists
  // before its summary (`[warn] src/a.ts`, https://prettier.io/docs/cli#--check).
  {
    re: /^Found [1-9]\d* errors?\b|^[1-9]\d* errors?, \d+ warnings?, \d+ (?:informations?|notes?)\b|^svelte-check found [1-9]\d* errors?\b|^ESLint found too many warnings\b|^\S+: line \d+, col \d+, Error - |^\S+:\d+:\d+: .* \[Error\/[@\w/-]+\]$|^\s*\d+:\d+\s+Error: .*\S {2,}[@\w/-]+$|\bwould be reformatted\b|^Would reformat: |^error: cannot format \S+: |^ERROR: \S+ Imports are incorrectly sorted|^\[warn\] [^\s[\]]+\.[A-Za-z]\w*\s*$/,
    score: 86,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (build): bundlers' and build drivers' verdicts, below the errors they sum up: webpack's
  // `ERROR in ./src/a.js 12:5` and `webpack compiled with 2 errors` (https://webpack.js.org/api/stats/),
  // Next.js and Create React App `Failed to compile.` (https://nextjs.org/docs/app/api-reference/cli/next),
  // Vite's `error during build:` (https://vite.dev/guide/build), esbuild's JS API `Build failed with
  // 1 error:` (https://esbuild.github.io/api/#build), ninja's `ninja: build stopped: subcommand
  // failed.` (https://github.com/ninja-build/ninja/blob/master/src/ninja.cc).
  {
    re: /^\s*ERROR in (?:\S*[/.]\S*|\[\w+\])|^Failed to compile\.?\s*$|^error during build:\s*$|\bBuild failed with [1-9]\d* errors?:|\bwebpack(?: [\d.]+)? compiled with [1-9]\d* errors?\b|^> Build failed because of webpack errors|^ninja: build stopped: subcommand failed\./,
    score: 84,
    kind: 'error',
    category: 'compile_error',
  },
  // Zero-shot (build): xcodebuild's list of the commands that failed, below `** BUILD FAILED **`.
  { re: /^The following build commands failed:/, score: 82, kind: 'summary-header' },
  // pytest's short test summary names a test that failed, whatever exception it failed with
  // (`FAILED tests/test_a.py::TestX::test_y - AttributeError: type object 'E' has no attribute 'X'`,
  // https://docs.pytest.org/en/stable/how-to/output.html#producing-a-detailed-summary-report): a
  // test failure, before the compile rules read the exception's words.
  {
    re: /^FAILED \S+\.py::\S+(?: - |$)/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // golangci-lint's issues (`internal/a.go:345:2: QF1003: could use tagged switch (staticcheck)`,
  // behind `Error: ` as golangci-lint-action annotates them, https://golangci-lint.run/usage/configuration/#output-configuration):
  // a linter rejecting the code.
  {
    re: /^(?:Error: )?\S+\.go:\d+:\d+: .+ \([a-z][\w-]*\)$/,
    score: 87,
    kind: 'error',
    category: 'compile_error',
  },
  // Compile / build errors.
  {
    // Compilers print a lower-case `error:`; `Error:` is usually a runtime or test message.
    // Maven's `[ERROR] /src/A.java:[12,5]` is javac's; `[ERROR] \tat a.B(B.java:274)` is a stack
    // frame Maven relays, not a compile error.
    re: /^\s*(?:\S+:\d+(?::\d+)?: (?:fatal )?error|(?:fatal )?error\[E\d{4}\]): |\berror (?:TS|CS|C|LNK)\d{4,5}\b|\bfatal error (?:C|LNK)\d{4}\b|\[(?:ERROR|error)\] (?!\s*at )(?!\s*\.\.\. \d+ more).*\.(?:java|kt|scala):\[?\d+|\bimplicit declaration of (?:function|variable)|\b(?:lld-link|ld(?:\.\w+)?|collect2): error:|\bundefined symbol: |\bunresolved external symbol\b/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  {
    re: /\b(?:undefined reference to|cannot find symbol|unresolved import|cannot find (?:module|package|type|name|value|crate)|undeclared name|undefined: (?!\d)|has no (?:field or method|attribute|member)|is not assignable to|incompatible types|expected .*, found\b|syntax error|SyntaxError|^(?:IndentationError|TabError): |compilation (?:failed|terminated)|COMPILATION ERROR|Compilation failed|could not compile|cannot use .* as|mismatched types|does not exist on type|is not defined|ld returned \d+ exit status)/i,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Linters: ESLint's `12:5  error  message  rule` and its summary, TSLint's `ERROR: file:12:5 rule
  // message`, PHPStan's `[ERROR] Found 3 errors`, SwiftLint's `Found 1 violation`, and Gradle's lint and
  // format tasks (Spotless, Checkstyle, ktlint, detekt, Android lint), RuboCop's `3 offenses detected` and
  // formatters in check mode (mix format, black, Prettier, rustfmt's `error[internal]: line formatted,
  // but exceeded maximum width` and its diff headers, `Diff in src/lib.rs at line 12:` before 1.4.x and
  // `Diff in /w/src/lib.rs:2220:` since, https://github.com/rust-lang/rustfmt/blob/master/src/emitter/diff.rs).
  {
    re: /^\s*\d+:\d+\s+error\s|✖ \d+ problems? \(\d+ errors?|^ERROR: \S+\.\w+[:[(]\d+[:,]\d+\)?:? |^\s*\[ERROR\] Found \d+ errors?\b|\bFound [1-9]\d* violations?\b|\bhad format violations\b|\b[1-9]\d* offenses? detected\b|\bmix format failed\b|--check-formatted\b|^error\[internal\]: line formatted, but exceeded maximum width|\bwould reformat\b|\bCode style issues found\b|^Diff in \S+(?: at line \d+|:\d+:$)|Execution failed for task '[^']*:(?:spotless\w*Check|checkstyle\w*|ktlint\w*|detekt\w*|lint\w*)'/,
    score: 86,
    kind: 'error',
    category: 'compile_error',
  },
  // Configure-time checks (autoconf, CMake): a missing library or tool is a dependency problem
  // (pkg-config's PKG_CHECK_MODULES: `Package requirements (libxml-2.0 >= 2.9.0) were not met`,
  // https://people.freedesktop.org/~dbn/pkg-config-guide.html).
  {
    re: /^configure: error: .*(?:not found|[Ff]ailed to find|[Cc]ould not find|[Cc]annot find|missing|required|No package|librar(?:y|ies)|Package requirements \(.*\) were not met)|Could NOT find \w+|^CMake Error at \S*Find\w+\.cmake|^CMake Error: .*(?:not found|NOTFOUND)/,
    score: 90,
    kind: 'error',
    category: 'dependency_network',
  },
  {
    re: /^configure: error: |^CMake Error\b/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // The Kotlin compiler prints `e: file.kt: (12, 5): message` (K1) or `e: file:///x.kt:12:5 message` (K2).
  {
    re: /^e: (?:file:\/\/)?\S+\.kts?(?::\d+:\d+|: \(\d+, \d+\):)\s/,
    score: 88,
    kind: 'error',
    category: 'compile_error',
  },
  // Erlang's compiler prints `src/x.erl:91: message` (warnings say `Warning:`).
  {
    re: /^\S+\.[he]rl:\d+(?::\d+)?: (?!Warning:)\S/,
    score: 87,
    kind: 'error',
    category: 'compile_error',
  },
  // Go's compiler, vet and linters print `file.go:line:col: message` at column 0 (test output is indented).
  {
    re: /^[\w./-]+\.go:\d+(?::\d+)?: \S/,
    score: 87,
    kind: 'error',
    category: 'compile_error',
  },
  // Patches and sources of a package recipe that do not apply or are missing.
  {
    re: /\bhunks? FAILED\b|\bHunk #\d+ FAILED\b|^error: Bad file: |\bdoes not apply\b|^Patch #?\d+ .*(?:failed|FAILED)/,
    score: 90,
    kind: 'error',
    category: 'config_yaml',
  },
  // Cloud credentials missing or rejected (AWS-style SDKs and CLIs).
  {
    re: /Access key (?:cannot be null|is missing)|Unable to locate credentials|NoCredentialProviders|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken\b|InvalidClientTokenId/,
    score: 90,
    kind: 'error',
    category: 'permission_auth',
  },
  // Maven surefire's per-class and per-test verdict (`Tests run: 7, Failures: 1, … <<< FAILURE! - in
  // x.FooTest`, `testBar(x.FooTest)  Time elapsed: 0.01 s  <<< ERROR!`), Pester's failed `[-]` and
  // Perl Test::More's diagnostics (`#   Failed test 'x'`, `#          got: 'foo'`).
  {
    re: /<<< (?:FAILURE|ERROR)!|^\s*\[-\] \S|^#\s+Failed test\b|^#\s+(?:got|expected): /,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // A test that crashed the process (pytest's `path::test_x Fatal Python error: Segmentation fault`),
  // Ant's junit task verdict (`build.xml:86: Test x.FooTest failed`) and a test runner's result
  // table (`feature_segwit.py   | ✖ Failed  | 12 s`, bitcoin's functional tests).
  {
    re: /::test\w* .*(?:Fatal Python error|Segmentation fault|core dumped)|^\S+\.xml:\d+: Test \S+ failed\b|^\S+\s+\|\s*✖ Failed\b/,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // More test verdicts: RSpec's `Failure/Error:` and `rspec ./spec/x_spec.rb:12 # …` rerun lines,
  // `dotnet test`'s `Failed Name [12 ms]`, xcodebuild's `** TEST FAILED **`, ExUnit's
  // `12 tests, 1 failure`, Bazel's `//pkg:test   FAILED in 3.2s` (or TIMEOUT).
  {
    re: /^\s*Failure\/Error: |^rspec \.\/\S+:\d+ # |^\s*Failed [\w.+`<>,-]+(?:\(.*\))? \[[\d.]+ ?m?s\]|\*\* TEST FAILED \*\*|^Testing failed:|\b\d+ (?:tests|examples), [1-9]\d* failures?\b|^\/\/\S+\s+(?:FAILED|TIMEOUT) in \d/,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // Test verdict lines: Gradle `Class > test() FAILED`, `name FAILED`, xUnit `[FAIL]`, PHPUnit and
  // mocha numbered failures, TAP/prove (`not ok`, `Dubious`), Python logging `(ERROR):`.
  {
    re: /^\s*(?!BUILD\b)[\w./:[\]-]+(?: > [^>]+)* FAILED\s*$|\s\[FAIL\]\s*$|^\s*\d+\) [\w\\]+::\w+|^\s*\d+\) \S.*:$|^\s*not ok \d+\b|\bDubious, test returned [1-9]|\bFailed \d+\/\d+ (?:subtests|test programs)|^Result: FAIL\s*$/,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // Linters that print `file:line:col: CODE message` (flake8/pycodestyle, RuboCop, shellcheck -f gcc).
  {
    re: /^\S+:\d+:\d+: (?:[EWFC]\d{3,4}\b|[CWEF]: \S|(?:error|warning): .*\[SC\d{4}\]|warning: .* Violation: )|^\S+\.\w+: ?\d+(?::\d+)?:? (?:MD\d{3}\/|[A-Z]{1,5}\d{3,4} \S)/,
    score: 86,
    kind: 'error',
    category: 'compile_error',
  },
  // Minitest: `Class#test_name [file.rb:36]:` after a `Failure:` or `Error:` header.
  {
    re: /^[\w:]+#test_\S+(?: \[\S+:\d+\])?:?$/,
    score: 89,
    kind: 'error',
    category: 'test_failure',
  },
  // Test counts: decisive, but the verdict lines above them name the failing test.
  {
    re: /\bTests? (?:Suites: )?.*\b\d+ failed\b|\bTests [Rr]un:.*(?:Failures: [1-9]|Errors: [1-9])|\btest result: FAILED|\b\d+ (?:runs|tests), \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)|(?<!\bline |\bcode |\bstatus |\/)\b[1-9]\d* (?:failed|failing)\b|There (?:was|were) \d+ failures?|\b\d+% tests passed, [1-9]\d* tests? failed out of \d+/,
    score: 84,
    kind: 'error',
    category: 'test_failure',
  },
  // Rust libtest's `test a::b ... FAILED` and Python unittest's `test_x (pkg.Case) ... FAIL` list
  // the failing tests before their details (a panic, a traceback), which say more: scored below them.
  {
    re: /^test \S+(?: - should panic)? \.\.\. FAILED$|^\w+ \([\w.]+\) \.\.\. (?:FAIL|ERROR)$/,
    score: 86,
    kind: 'error',
    category: 'test_failure',
  },
  // Tests.
  {
    re: /^\s*(?:--- FAIL:|FAIL\b|FAILED\b|(?:✕|✗|×)(?!\s*Build failed\b)|●\s)|^(?:FAILED|ERROR) \S+::|\berror: test failed|\bAssertionError\b|\bassert(?:ion)? (?:failed|error)|AssertionFailedError|ComparisonFailure|Expected:? .*(?:but (?:was|got)|received|to (?:equal|be|have))|^\s*(?:Expected|Received|expected|actual|got|want)\s*:(?!=)(?! from [\w.-]+ \()|thread '.*'(?: \(\d+\))? panicked at|^\s*E\s{2,}\S/,
    score: 88,
    kind: 'error',
    category: 'test_failure',
  },
  // Ansible: a failed loop item (`failed: [host] (item=x) => {…}`; `fatal: [host]: FAILED!` is
  // generic below), and the Python OS error a module reports as its `msg` (`rmtree failed: [Errno
  // 30] Read-only file system: …`), a line of its own once the distiller expands the result.
  {
    re: /^failed: \[[^\]]+\](?: \(item=.*?\))? => \{|^\w[\w ]* failed: \[Errno \d+\] /,
    score: 85,
    kind: 'error',
    category: 'script_error',
  },
  // Generic errors.
  {
    re: /^[\w.+-]+: (?:error|fatal|ERROR|FATAL)\b:? |^\*\* \(\w[\w.]*\) |^[\s│|]*(?:npm ERR!|npm error|ERR!|\[ERROR\]|\[ +(?:ERROR|CRITICAL) +\]:|ERROR\b|FATAL\b|fatal:|Error:|error\b|E\/|panic:|Fatal error:)|\b(?:FATAL|CRITICAL)\b|\bpanic: |^Traceback \(most recent call last\)|^\s*Caused by\b|^\s*caused by: |^\s*(?:[\w$]+(?:\.|::))*[\w$]*(?:Exception|Error)\b(?::|\s*$)|^\s*(?:[\w$]+\.)*[A-Z][a-z]\w*(?:Failed|Failure): |\((?:ERROR|CRITICAL)\): |^The command ".*" exited with [1-9]\d*\.|make(?:\[\d+\])?: \*\*\*|^curl: \(\d+\)|BUILD FAILURE|FAILURE: Build failed|BUILD FAILED|Build failed|Segmentation fault|core dumped|Aborted|command not found|No such file or directory|exited with (?:code|status) [1-9]|exit (?:code|status) [1-9]|returned (?:a )?non-zero exit status|non-zero (?:exit )?code|terminated with exit code|failed with exit code|Process completed with exit code [1-9]|The command '.*' returned a non-zero code|did not complete successfully|unhealthy|Unhandled(?:Promise)?Rejection|Uncaught/,
    score: 85,
    kind: 'error',
    category: 'script_error',
  },
  // Maven surefire's failure summary: the failing tests are listed below it.
  {
    re: /^\[ERROR\] (?:Failures|Errors): ?$|^\[ERROR\] Tests run:.*(?:Failures: [1-9]|Errors: [1-9])/,
    score: 86,
    kind: 'summary-header',
    category: 'test_failure',
  },
  // Test-runner and build-tool summaries: keep the block that follows.
  {
    re: /^\s*(?:\d+\) )?(?:Failure|Error):\s*$|^_* ?ERROR collecting \S+|^_{3,} (?:\w+\.)*[Tt]est\S* _{3,}$|short test summary info|Summary of all failing tests|^\s*\* What went wrong:|^failures:\s*$|^The following tests FAILED:|^Failed tests:|^Tests in error:|^Results\s*:|^=+ FAILURES =+|^=+ ERRORS =+|Failing tests:|^\s*\d+\) |Test Suites: .*failed/,
    score: 82,
    kind: 'summary-header',
  },
  // Lower-value hints.
  { re: /\bwarn(?:ing)?\b|\bdeprecated\b/i, score: 30, kind: 'warning' },
];

/** The result of classifying one line. */
export interface LineClass {
  score: number;
  kind: LineKind;
  category: FailureCategory | undefined;
}

const NONE: LineClass = { score: 0, kind: 'noise', category: undefined };

// A compiler's warning or note (gcc/clang `file:12:5: warning:`, `cc1plus: note:`, MSVC
// `file(12): warning C4996:`), or apt's
// (`W: Failed to fetch …`, ignored by apt itself), is not why
// a build failed, even when its text says "is not defined"; with -Werror it is printed as an error.
// Still counted: linters whose findings are all "warnings" (shellcheck's [SC####], SwiftLint's "… Violation:"), and the
// warnings GCC 14 turned into errors (https://gcc.gnu.org/gcc-14/porting_to.html), which break
// configure checks and newer toolchains.
const COMPILER_WARNING =
  /^W: |^\S+: note: |^\s*\S+:\d+(?::\d+)?: note: |^\s*\S+(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\)\s?:) warning(?::| [A-Z]+\d+)(?!.*(?:\[SC\d{4}\]| Violation: |implicit declaration|implicit-function-declaration|implicit-int|int-conversion|incompatible(?:-| )pointer|return-mismatch|-Werror))/;
const WARNING: LineClass = { score: 30, kind: 'warning', category: undefined };

// Most lines that pass the pre-filter match no error rule ("warning", "shared", "signal"). A few
// regexes holding the alternatives of every other rule find that in a few scans of the line
// instead of one scan per rule (one of them matches exactly when one of the rules does); only then
// do all rules run, to learn which match. Each holds rules of one flag set and stays below V8's
// 20 KiB pattern size (kRegExpTooLargeToOptimize in https://github.com/v8/v8/blob/main/src/regexp/regexp.h),
// above which V8 neither optimises nor compiles it to machine code: one combined pattern just over
// it made classifying the development corpus 3.5 times slower.
const OTHER_RULES = LINE_RULES.filter((r) => r.kind !== 'warning');
const ANY_RULE_MAX_SOURCE = 16_000;
function anyOf(rules: LineRule[]): RegExp[] {
  const combined: RegExp[] = [];
  for (const flags of ['', 'i']) {
    let parts: string[] = [];
    let size = 0;
    const flush = () => {
      if (parts.length > 0) combined.push(new RegExp(parts.join('|'), flags));
      parts = [];
      size = 0;
    };
    for (const r of rules.filter((rule) => rule.re.flags === flags)) {
      const part = `(?:${r.re.source})`;
      if (part.length > ANY_RULE_MAX_SOURCE) throw new Error('a line rule is too long to combine');
      if (size + part.length > ANY_RULE_MAX_SOURCE) flush();
      parts.push(part);
      size += part.length + 1;
    }
    flush();
  }
  return combined;
}
const ANY_RULES = anyOf(OTHER_RULES);
if (OTHER_RULES.some((r) => r.re.flags !== '' && r.re.flags !== 'i')) {
  throw new Error('ANY_RULES only combine rules without flags or with `i`');
}
const WARNING_RULES = LINE_RULES.filter((r) => r.kind === 'warning');

/**
 * A test run's verdict that every test passed, in the runners' documented words: VSTest's `Test
 * Run Successful.` and `Passed!  - Failed: 0, …`
 * (https://learn.microsoft.com/dotnet/core/tools/dotnet-test), pytest's `=== 12 passed in 0.5s ===`,
 * Jest's `Tests: 12 passed, 12 total`, PHPUnit's `OK (12 tests, 30 assertions)`, libtest's `test
 * result: ok.`, RSpec's, Minitest's and ExUnit's counts with 0 failures. The assertion-like lines a
 * run printed before such a verdict came from tests that passed (or from logging), not a failure.
 */
export const PASSING_RUN =
  /^\s*Test Run Successful\.\s*$|^\s*Passed!\s+- Failed:\s+0,|^=+ (?:\d+ (?:passed|skipped|deselected|xfailed|xpassed|warnings?)(?:, )?)+ in [\d.]+m?s(?: \([\d:]+\))? =+$|^Tests:\s+(?:\d+ (?:skipped|todo), )*\d+ passed, \d+ total|^OK \(\d+ tests?, \d+ assertions?\)|^test result: ok\. \d+ passed; 0 failed|^\d+ examples?, 0 failures\b|^\d+ runs, \d+ assertions, 0 failures, 0 errors\b|^\d+ (?:tests?|doctests?|properties)(?:, \d+ (?:doctests?|properties))*, 0 failures\b/;

/** Classifies one cleaned log line. */
export function classifyLine(line: string): LineClass {
  if (!HINT.test(line)) return NONE;
  if (COMPILER_WARNING.test(line)) return WARNING;
  let best: LineRule | undefined;
  let category: FailureCategory | undefined;
  const rules = ANY_RULES.some((re) => re.test(line)) ? LINE_RULES : WARNING_RULES;
  for (const rule of rules) {
    if (rule.re.test(line)) {
      if (!best || rule.score > best.score) best = rule;
      // The most specific category wins: rules are ordered most specific first.
      if (category === undefined && rule.category !== undefined) category = rule.category;
    }
  }
  if (!best) return NONE;
  if (
    best.kind === 'error' &&
    (NOT_AN_ERROR.test(line) || (ALARMING_WORDS.test(line) && !OPENS_WITH_ERROR.test(line))) &&
    !/\bERROR: Job failed\b|\b[1-9]\d* (?:errors|failures|failed)\b|\b(?:Failures|Errors|Failed): [1-9]/.test(
      line,
    )
  ) {
    return { score: 10, kind: 'noise', category: undefined };
  }
  return { score: best.score, kind: best.kind, category };
}

/** A stack-trace frame or trace continuation (JS, JVM, Python, Go, Rust, .NET). */
export const FRAME =
  /^\s+at [\w$.<>[\]/ ]+[ (]|^\s+at \S+:\d+(?::\d+)?\)?$|^\s+File ".*", line \d+|^\s*\.\.\. \d+ (?:more|common frames omitted)|^\s+[\w./-]+\.(?:go|rs|py|java|kt|ts|js|c|cc|cpp|h):\d+|^\s+\d+: (?:0x[0-9a-f]+ - )?\S|^\s*--> \S+:\d+:\d+|^\s*\|\s|^\s*\d+\s*\|\s|^goroutine \d+ \[|^\s+\^+|^\s*[\w.]+\([\w./, *]*\)$|^\s*created by /;

/**
 * Lines that follow from the real error rather than explain it: build tools, shells and CI systems
 * reporting that a step failed.
 */
export const WRAPPER =
  /^✗ Build failed in \d|Bad exit status from \S+ \(%\w+\)|^make(?:\[\d+\])?: \*\*\* (?!No rule to make target)|Process completed with exit code|npm ERR! (?:code ELIFECYCLE|errno|Test failed\.|Exit status|Failed at|A complete log)|^npm error (?:code|errno|Lifecycle|command failed)|\bELIFECYCLE\b|^RPM build errors|^ERROR: Job failed\b|error: last command exited|\bBUILD FAILED\b|FAILURE: Build failed|^Build failed\b|^error: build failed|returned (?:a )?non-zero exit status|The command ".*" exited with [1-9]\d*\.?$|^Error: Process completed|^error Command failed with exit code \d+\.$|exited with code [1-9]|^\S*Error: Command failed|^ERROR: Exception\(|^ERROR: Command failed|^ERROR: Step \S.*\S (?:failed|aborted due to exception)|^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|-> \[Help|Re-run Maven|To see the full stack|For more information about the errors|\s*$)/;

/**
 * A CI system's verdict that one command (Travis) or step (GitHub Actions) failed; the job may run
 * more commands after it, whose failures usually follow from the first.
 */
export const COMMAND_VERDICT =
  /^The command ".*" exited with [1-9]\d*\.?$|Process completed with exit code [1-9]/;

/** A shell command as GitLab echoes it (`$ npm test`). */
export const COMMAND = /^\$ \S/;

/** Signature for near-duplicate folding: numbers, hex and durations vary, the message does not. */
export function lineSignature(line: string): string {
  return line
    .replace(/0x[0-9a-f]+/gi, '#')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}
