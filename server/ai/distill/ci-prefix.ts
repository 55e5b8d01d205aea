/** The prefixes CI systems put before every log line, which rules must not see. */

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

/** The name DecisiveLine.rule carries for a line only the CI system's `##[error]` made decisive. */
export const CI_ERROR_ANNOTATION_RULE = 'ci-prefix/error-annotation';
