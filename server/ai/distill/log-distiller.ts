import { CI_ERROR_ANNOTATION, stripCiPrefix } from './ci-prefix.ts';
import { lineTemplate, templatesOf } from './green-diff.ts';
import { lineSignature } from './line-signature.ts';
import { PASSING_RUN } from './passing-run.ts';
import { classifyLine, type LineClass } from './rules/classify-line.ts';
import type { FailureCategory, LineKind } from './rules/rule.ts';
import { FRAME } from './stack-frame.ts';
import { COMMAND, COMMAND_VERDICT, LEAD_IN, WRAPPER } from './step-lines.ts';

/** Tuning knobs of the distiller; the defaults suit a chat model's prompt. */
export interface DistillOptions {
  /** Most characters of distilled text (default 24,000). */
  budgetChars?: number;
  /** Lines kept before each decisive line (default 4). */
  contextBefore?: number;
  /** Lines kept after each decisive line (default 6). */
  contextAfter?: number;
  /** Last non-empty lines of the log always kept (default 20). */
  tailLines?: number;
  /** Longer lines are cut in the middle (default 1,000). */
  maxLineChars?: number;
  /**
   * The log of the last green run of the same job. Lines whose template (numbers, hashes, paths,
   * timestamps masked) also occurs there are left out before the budget is spent; lines matched
   * by an error rule, commands and step lead-ins are always kept.
   */
  baseline?: string | undefined;
}

// Lines between a tool's error message and the CI system's verdict that say nothing of their own:
// CI bookkeeping (Travis, GitHub Actions, Jenkins post-build steps, OBS's VM shutdown and verdict),
// Gradle's failure-report headings and help lines, traceback headers, rulers, npm's and yarn's error dumps.
const AFTERWORD =
  /^(?:travis_(?:time|fold):|##\[(?:end)?group\]|\[Pipeline\] |Finished: |Cleaning up\b|Post job cleanup|stack traceback:|Traceback \(most recent call last\):|npm (?:ERR!|error)|info Visit https:\/\/yarnpkg|[=_*~#.+-]{3,}\s*$|Build step '.*' marked build as|Sending e-mails to|Archiving artifacts|Recording test results|\[WS-CLEANUP\]|GitHub Issue Notifier|### VM INTERACTION (?:START|END) ###|\[\s*\d+\.\d+\]\[\s*T\d+\] |\S+ failed "build .*" at |\* (?:What went wrong|Try|Get more help at):|> (?:Run with --|Get more help at )|BUILD FAILED in |Node\.js v\d+\.\d+\.\d+$|[}\])]+[,;]?$)/;
// Trace frames in forms FRAME leaves to the rules' own languages: Lua (`[C]: in function`,
// `[string "…"]:12: in function`), Elixir (`(elixir) lib/enum.ex:1755: Enum…`).
const OTHER_FRAME = /^\s+(?:\[C\]:|\[string "|\S+:\d+: in \w|\(\w+\) \S+:\d+: )/;
// Words of an error message in any tool's voice.
const ERRORISH =
  /\b(?:errors?|fail(?:ed|ure|s)?|fatal|exception|cannot|can't|could not|couldn't|unable|not found|no such|invalid|denied|missing|unexpected|refused|abort(?:ed|ing)?|panic|exceed(?:ed|s)?)\b/i;
// How far back from the verdict the failing command's last words are looked for.
const LAST_WORDS_REACH = 80;

/**
 * The failing command's last output lines: walking back from the first failed-command verdict (or
 * the end of the failing section, or of the log) past blank lines, frames, wrappers and CI
 * bookkeeping, and never past the command's own start.
 */
function findLastWords(entries: Entry[], failingSection: LogSection | undefined): Entry[] {
  let from = -1;
  if (failingSection) {
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i]!.line <= failingSection.endLine) {
        from = i;
        break;
      }
    }
  } else {
    from = entries.findIndex((e) => COMMAND_VERDICT.test(e.bare));
    if (from === -1) from = entries.length - 1;
  }
  const words: Entry[] = [];
  // A source line a caret points at (`    ^`) belongs to the message under it.
  const pointedAt = new Set<Entry>();
  let caret = false;
  for (let i = from, seen = 0; i >= 0 && seen < LAST_WORDS_REACH && words.length < 5; i--, seen++) {
    const e = entries[i]!;
    const t = e.bare.trim();
    if (failingSection && e.line <= failingSection.startLine) break;
    // The paragraph holding the message ends at a blank line.
    if (t === '' && words.some((w) => ERRORISH.test(w.bare))) break;
    if (t === '' || AFTERWORD.test(t) || WRAPPER.test(t) || COMMAND_VERDICT.test(t)) continue;
    if (/^[\^~]+$/.test(t)) {
      caret = true;
      continue;
    }
    if (FRAME.test(e.bare) || OTHER_FRAME.test(e.bare)) continue;
    if (COMMAND.test(t) || LEAD_IN.test(t)) break;
    if (words.some((w) => w.bare.trim() === t)) continue;
    if (caret) pointedAt.add(e);
    caret = false;
    words.unshift(e);
  }
  // Progress lines before the message ("fetching: 1 object") are not what the reader needs.
  const first = words.findIndex((w) => ERRORISH.test(w.bare) || pointedAt.has(w));
  return first >= 0 ? words.slice(first, first + 3) : words.slice(-3);
}

/** A GitLab `section_start`/`section_end` pair (1-based cleaned line numbers, inclusive). */
export interface LogSection {
  name: string;
  /** The section's visible header, e.g. `Executing "step_script" stage of the job script`. */
  header: string;
  startLine: number;
  /** Last line inside the section; the log's last line when the section never ended. */
  endLine: number;
  /** False when the log ends inside the section (the job died in it). */
  closed: boolean;
  /** Seconds between start and end markers, when both carried timestamps. */
  durationSec: number | undefined;
}

/** A line the distiller judged decisive (score ≥ 80), after folding. */
export interface DecisiveLine {
  /** 1-based line number in the cleaned log. */
  line: number;
  text: string;
  /** The text without CI line prefixes (timestamps, log levels), for reading the message. */
  message: string;
  score: number;
  category: FailureCategory | undefined;
  /** How many times this line, or a near-duplicate of it, occurred. */
  occurrences: number;
  /** Name of the innermost section it sits in, if any. */
  section: string | undefined;
}

/** The focused view of a job log that goes to a model (and feeds the offline analyser). */
export interface DistilledLog {
  /** The excerpt: kept lines in order, `… [N lines omitted] …` for gaps, folds annotated. */
  text: string;
  /** Characters of the raw log. */
  originalChars: number;
  /** Lines of the cleaned log. */
  totalLines: number;
  /** Log lines represented in `text` (folded repeats count once). */
  keptLines: number;
  sections: LogSection[];
  /** The section the job failed in, when the log has sections. */
  failingSection: LogSection | undefined;
  /** The last `$ command` run before the first decisive error of the failing section. */
  failingCommand: string | undefined;
  /** Decisive lines in log order, near-duplicates folded into `occurrences`. */
  decisive: DecisiveLine[];
  /** Exit code from `ERROR: Job failed: exit code N` or similar, if printed. */
  exitCode: number | undefined;
  /** The last non-empty lines of the log. */
  tail: string[];
  /**
   * What the failing command itself printed last (up to three lines, in log order): the lines just
   * before the CI system's verdict, past blank lines, stack frames and wrappers. When no rule knows
   * the tool, this is usually its error message.
   */
  lastWords: DecisiveLine[];
  /** Lines left out because the last green run printed them too; undefined without a baseline. */
  sameAsGreen: number | undefined;
  /** The container image the job ran in, when the runner printed it. */
  image: string | undefined;
  /** Lines (1-based) where a test run reported that all its tests passed (see PASSING_RUN). */
  passingRuns: number[];
  /**
   * GitHub Actions: the step that failed, from its `##[group]Run …` header to the runner's
   * `Process completed with exit code N`. Earlier steps' errors did not fail the job (a `|| fallback`,
   * `continue-on-error`).
   */
  failingStep: { startLine: number; endLine: number } | undefined;
}

// CSI (colours, erase-line), OSC (titles, hyperlinks) and the other string controls of ECMA-48
// §8.3 (APC, DCS, PM, SOS: Buildkite stamps every line with an APC `ESC _bk;t=<ms> BEL`), charset
// selection, two-byte escapes, and other C0 controls except \t, \n and \r (carriage returns are
// resolved per line below).
const ANSI =
  // eslint-disable-next-line no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]_P^X][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+][0-9A-Za-z]|[@-Z\\-_])|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
const SECTION_MARKER = /section_(start|end):(\d+):([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?/g;
// FF_TIMESTAMPS runners prefix every line with `2024-05-01T10:00:00.123456Z 00O `.
const RUNNER_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z [0-9a-f]{2}[OE]\+? ?/;
const BOILERPLATE_SECTIONS = new Set([
  'prepare_executor',
  'prepare_script',
  'resolve_secrets',
  'restore_cache',
  'download_artifacts',
  'after_script',
  'archive_cache',
  'archive_cache_on_failure',
  'upload_artifacts_on_success',
  'upload_artifacts_on_failure',
  'cleanup_file_variables',
]);

const IMAGE_LINE =
  /(?:Using (?:Docker|Kubernetes|docker-autoscaler|Podman) executor with image|Using docker image \S+ for|Pulling docker image) ([^\s,]+)/;
const LOCATION_IN_LINE = /[\w./-]+\.[A-Za-z]\w*:\d+(?::\d+)?/;

interface Entry {
  text: string;
  /** The text without CI line prefixes (timestamps, build-time stamps, log levels): what rules see. */
  bare: string;
  /** Consecutive identical lines folded into this one. */
  count: number;
  /** 1-based line number of the first of them in the cleaned log. */
  line: number;
  section: number;
  score: number;
  kind: LineKind;
  category: FailureCategory | undefined;
  /** A near-duplicate of an earlier error: shown only as that line's `[+N similar lines]`. */
  folded?: boolean;
  /** Printed by the last green run too (see DistillOptions.baseline). */
  green?: boolean;
}

/** Strips ANSI escapes and control characters (exported for the bench baseline and tests). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function resolveCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line;
  // A terminal shows what was written after the last carriage return (progress bars rewrite the
  // line); a trailing \r (CRLF logs) leaves the text before it.
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i]!.trim() !== '') return parts[i]!;
  return '';
}

function cutLongLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  return `${line.slice(0, head)} …[${line.length - max} chars cut]… ${line.slice(-tail)}`;
}

// Ansible's default callback prints a failed task's whole result as one JSON line (`fatal: [host]:
// FAILED! => {…}`, `failed: [host] (item=x) => {…}`), the command's output inside it as
// `stdout_lines` / `stderr_lines` (https://docs.ansible.com/ansible/latest/reference_appendices/common_return_values.html).
const ANSIBLE_RESULT =
  /^(?:fatal|failed): \[[^\]]*\](?: \(item=.*?\))?(?:: (?:FAILED|UNREACHABLE)!)? => \{/;
const ANSIBLE_OUTPUT_KEYS = ['msg', 'module_stderr', 'stderr_lines', 'stdout_lines'] as const;

/**
 * A long Ansible task result, followed by the lines of its message and of the command's output
 * (nested results one level deep: an `ansible-playbook` run by a task), so that the error inside
 * it is a log line of its own instead of the middle of a cut JSON line. Any other line: itself.
 */
function expandAnsibleResult(text: string, depth = 0): string[] {
  const bare = stripCiPrefix(text);
  const m = ANSIBLE_RESULT.exec(bare);
  if (!m) return [text];
  let result: unknown;
  try {
    result = JSON.parse(bare.slice(m[0].length - 1));
  } catch {
    return [text];
  }
  if (typeof result !== 'object' || result === null) return [text];
  const prefix = text.slice(0, text.length - bare.length);
  const out = [text];
  const loop = (result as { results?: unknown }).results;
  const items = Array.isArray(loop) ? [result, ...(loop as unknown[])] : [result];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const fields = item as Record<string, unknown>;
    for (const key of ANSIBLE_OUTPUT_KEYS) {
      const value = fields[key];
      const lines = Array.isArray(value)
        ? value.filter((v): v is string => typeof v === 'string')
        : typeof value === 'string'
          ? value.split('\n')
          : [];
      for (const line of lines) {
        if (line.trim() === '') continue;
        const inner = prefix + line.trimEnd();
        out.push(...(depth < 1 ? expandAnsibleResult(inner, depth + 1) : [inner]));
      }
    }
  }
  return out;
}

/**
 * Distils a raw GitLab job log into a focused excerpt within a character budget: ANSI and
 * carriage-return overwrites resolved, section markers parsed, repeats folded, error windows
 * (with stack traces, their "Caused by" lead-ins and test summaries) kept around decisive lines,
 * the failing section preferred, and the last lines always kept.
 */
export function distillLog(raw: string, options: DistillOptions = {}): DistilledLog {
  const budget = Math.max(1000, options.budgetChars ?? 24_000);
  const before = options.contextBefore ?? 4;
  const after = options.contextAfter ?? 6;
  const tailCount = options.tailLines ?? 20;
  const maxLine = Math.max(200, Math.min(options.maxLineChars ?? 1000, Math.floor(budget / 4)));

  // 1. Clean and fold: one regex pass for escapes, then per line markers, \r, timestamps.
  const rawLines = stripAnsi(raw).split('\n');
  if (rawLines.length > 0 && rawLines[rawLines.length - 1] === '') rawLines.pop();
  const sections: LogSection[] = [];
  const open: { index: number; ts: number }[] = [];
  const entries: Entry[] = [];
  let lineNo = 0;
  let image: string | undefined;
  for (let i = 0; i < rawLines.length; i++) {
    let text = rawLines[i]!;
    if (image === undefined && text.includes('image ')) {
      // GitLab runner: `Using Docker executor with image node:22 ...`, `Using docker image sha256:… for node:22 …`.
      image = IMAGE_LINE.exec(text)?.[1];
    }
    if (text.charCodeAt(4) === 45 && RUNNER_TIMESTAMP.test(text)) {
      text = text.replace(RUNNER_TIMESTAMP, '');
    }
    let startedHere = false;
    if (text.includes('section_')) {
      SECTION_MARKER.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = SECTION_MARKER.exec(text)) !== null) {
        const [, kind, ts, name] = m;
        if (kind === 'start') {
          sections.push({
            name: name!,
            header: '',
            startLine: lineNo + 1,
            endLine: lineNo + 1,
            closed: false,
            durationSec: undefined,
          });
          open.push({ index: sections.length - 1, ts: Number(ts) });
          startedHere = true;
        } else {
          // Close the innermost open section with this name (and anything left open inside it).
          for (let k = open.length - 1; k >= 0; k--) {
            const s = sections[open[k]!.index]!;
            if (s.name !== name) continue;
            s.closed = true;
            s.endLine = Math.max(s.startLine, lineNo);
            s.durationSec = Math.max(0, Number(ts) - open[k]!.ts);
            for (const inner of open.splice(k)) {
              const si = sections[inner.index]!;
              if (!si.closed) si.endLine = Math.max(si.startLine, lineNo);
            }
            break;
          }
        }
      }
      text = text.replace(SECTION_MARKER, '');
    }
    text = resolveCarriageReturns(text).trimEnd();
    if (startedHere) {
      const s = sections[sections.length - 1]!;
      s.header = text.trim();
    }
    // A line holding only a section_end marker is not part of the visible log.
    if (!startedHere && text === '' && /section_end/.test(rawLines[i]!)) continue;
    const section = open.length > 0 ? open[open.length - 1]!.index : -1;
    const lines =
      text.length > maxLine && !rawLines[i + 1]?.includes('...ignoring')
        ? expandAnsibleResult(text)
        : [text];
    for (const line of lines) {
      const cut = cutLongLine(line, maxLine);
      lineNo++;
      const prev = entries[entries.length - 1];
      if (prev && prev.text === cut && prev.section === section && cut !== '') {
        prev.count++;
        continue;
      }
      entries.push({
        text: cut,
        bare: stripCiPrefix(cut),
        count: 1,
        line: lineNo,
        section,
        score: 0,
        kind: 'noise',
        category: undefined,
      });
    }
  }
  const totalLines = lineNo;
  for (const o of open) {
    const s = sections[o.index]!;
    s.endLine = Math.max(s.startLine, totalLines);
  }

  // 2. Classify, then fold near-duplicate errors (same message, different numbers).
  const bySignature = new Map<string, { first: Entry; last: Entry; count: number }>();
  const folded = new Map<Entry, number>();
  // A log repeats many of its lines away from each other (the same warning per file, the same test
  // output per run): a line is classified once per log.
  const classOf = new Map<string, LineClass>();
  for (const e of entries) {
    if (e.text === '') continue;
    let c = classOf.get(e.bare);
    if (c === undefined) {
      c = classifyLine(e.bare);
      classOf.set(e.bare, c);
    }
    e.score = c.score;
    e.kind = c.kind;
    e.category = c.category;
    // The CI system itself flagged the line as an error.
    if (e.score < 85 && e.text.includes('##[error]') && CI_ERROR_ANNOTATION.test(e.text)) {
      e.score = 85;
      e.kind = 'error';
      e.category ??= 'script_error';
    }
    if (e.score >= 80 && e.kind === 'error') {
      // The same message at another source location is another error, not a repeat.
      const at = LOCATION_IN_LINE.exec(e.bare);
      const sig = at ? `${lineSignature(e.bare)}@${at[0]}` : lineSignature(e.bare);
      const seen = bySignature.get(sig);
      if (!seen) {
        bySignature.set(sig, { first: e, last: e, count: e.count });
      } else {
        seen.count += e.count;
        // Keep the first and the last verbatim (`attempt 1/5 failed` … `attempt 5/5 failed`: the
        // last is nearest the failure); the ones between only add to the first one's count.
        if (seen.last !== seen.first) {
          folded.set(seen.first, (folded.get(seen.first) ?? 0) + seen.last.count);
          seen.last.folded = true;
        }
        seen.last = e;
      }
    }
  }

  // An Ansible task whose failure the playbook ignores (`ignore_errors`) is followed by
  // `...ignoring`: its `fatal: … FAILED!` did not fail the job.
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.bare.trim() !== '...ignoring') continue;
    let j = i - 1;
    while (j > 0 && entries[j]!.bare.trim() === '') j--;
    const failed = entries[j]!;
    if (failed.kind === 'error' && /\bFAILED!/.test(failed.bare)) {
      failed.kind = 'noise';
      failed.score = 10;
      failed.category = undefined;
    }
  }

  // 2b. "What changed": lines the last green run printed too say nothing about this failure.
  let sameAsGreen: number | undefined;
  if (options.baseline !== undefined) {
    const green = templatesOf(
      stripAnsi(options.baseline)
        .split('\n')
        .map((l) => resolveCarriageReturns(l.replace(SECTION_MARKER, ''))),
    );
    sameAsGreen = 0;
    for (const e of entries) {
      if (e.kind === 'error' || e.kind === 'summary-header') continue;
      if (e.bare === '' || COMMAND.test(e.bare) || LEAD_IN.test(e.bare)) continue;
      if (green.has(lineTemplate(e.text))) {
        e.green = true;
        sameAsGreen += e.count;
      }
    }
  }

  // 3. Find the failing section and the command that failed.
  const sectionScore = new Map<number, number>();
  for (const e of entries) {
    if (e.score >= 80 && e.section >= 0 && !/^ERROR: Job failed\b/.test(e.bare)) {
      sectionScore.set(e.section, (sectionScore.get(e.section) ?? 0) + e.score);
    }
  }
  // Boilerplate sections (artifact upload, cache) print errors of their own ("No files to
  // upload"); they are the failing section only when the job never reached a script section.
  const hasScript = sections.some((s) => !BOILERPLATE_SECTIONS.has(s.name));
  let failing = -1;
  let bestScore = 0;
  for (const [idx, score] of sectionScore) {
    const s = sections[idx]!;
    if (hasScript && BOILERPLATE_SECTIONS.has(s.name)) continue;
    // A section the log ends inside is where the job died.
    const weighted = s.closed ? score : score * 1.5;
    if (weighted > bestScore) {
      bestScore = weighted;
      failing = idx;
    }
  }
  if (failing === -1) {
    for (let k = sections.length - 1; k >= 0; k--) {
      const s = sections[k]!;
      if (!s.closed && !BOILERPLATE_SECTIONS.has(s.name)) {
        failing = k;
        break;
      }
    }
  }
  if (failing === -1) failing = sections.findIndex((s) => s.name === 'step_script');
  const failingSection = failing >= 0 ? sections[failing] : undefined;
  const inFailing = (e: Entry) =>
    failingSection !== undefined &&
    e.line >= failingSection.startLine &&
    e.line <= failingSection.endLine;

  let failingCommand: string | undefined;
  let firstErrorIdx = -1;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (failingSection && !inFailing(e)) continue;
    if (e.score >= 85 && e.kind === 'error' && !/^ERROR: Job failed\b/.test(e.bare)) {
      firstErrorIdx = i;
      break;
    }
  }
  for (let i = (firstErrorIdx === -1 ? entries.length : firstErrorIdx) - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (failingSection && !inFailing(e)) {
      if (e.line < failingSection.startLine) break;
      continue;
    }
    if (COMMAND.test(e.bare)) {
      failingCommand = e.bare.slice(2).trim();
      break;
    }
  }

  // 4. Give every line a priority; higher is kept first.
  const priority = new Float64Array(entries.length);
  const bump = (i: number, p: number) => {
    if (i >= 0 && i < entries.length && p > priority[i]!) priority[i] = p;
  };
  let rank = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.score < 30) continue;
    const bonus = inFailing(e)
      ? 5
      : BOILERPLATE_SECTIONS.has(sections[e.section]?.name ?? '')
        ? -15
        : 0;
    const s = e.score + bonus;
    // Earlier errors usually explain later ones: rank breaks ties in their favour.
    const tie = 1 - Math.min(rank++, 9999) / 10_000;
    if (e.kind === 'warning') {
      // Warnings rarely explain a failure: they only fill budget the failing section left over.
      bump(i, 4 + tie);
      continue;
    }
    bump(i, s * 1.0 + tie);
    for (let d = 1; d <= before; d++) bump(i - d, s - 14 - 4 * d + tie);
    let j = i + 1;
    let frames = 0;
    // Stack traces and "Caused by" chains continue past the usual window.
    while (j < entries.length && frames < 15) {
      const t = entries[j]!.bare;
      if (!(FRAME.test(t) || /^\s*Caused by\b/.test(t))) break;
      bump(j, s - 8 - frames * 0.5 + tie);
      frames++;
      j++;
    }
    for (let d = 1; d <= after; d++) bump(j - 1 + d, s - 12 - 4 * d + tie);
    if (e.kind === 'summary-header') {
      for (let d = 1; d <= 40 && i + d < entries.length; d++) {
        const t = entries[i + d]!.bare;
        if (t === '' || /^[=_-]{5,}/.test(t)) break;
        bump(i + d, s - 2 - d * 0.3 + tie);
      }
    }
  }
  // Commands of the failing section, its header, and the last lines of the log.
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (failingSection && inFailing(e)) {
      if (COMMAND.test(e.bare)) bump(i, e.bare.slice(2).trim() === failingCommand ? 89 : 60);
      else if (e.line === failingSection.startLine) bump(i, 87);
      // Fill: the rest of the failing section, later lines first.
      else
        bump(
          i,
          5 +
            (e.line - failingSection.startLine) /
              Math.max(1, failingSection.endLine - failingSection.startLine),
        );
    } else if (!failingSection && COMMAND.test(e.bare)) {
      bump(i, 50);
    }
  }
  // The lead-in of each error's step (the `##[group]Run …` of a GitHub Actions step, pytest's
  // `____ test_x ____` header, the traced command) says what was running when it failed.
  let leadIn = -1;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.bare !== '' && LEAD_IN.test(e.bare)) leadIn = i;
    else if (e.kind === 'error' && e.score >= 85 && leadIn >= 0 && i - leadIn <= 5000) {
      bump(leadIn, e.score - 10);
    }
  }
  // The header of the GitHub Actions step that failed names the failing command, as `$ cmd` does
  // in a GitLab log.
  const step = failingStepOf(entries);
  if (step) bump(step.header, 89);
  // What the failing command printed last is its error message when no rule knows the tool.
  const lastWordEntries = findLastWords(entries, failingSection);
  for (const e of lastWordEntries) bump(entries.indexOf(e), 88);
  const tail: string[] = [];
  for (let i = entries.length - 1; i >= 0 && tail.length < tailCount; i--) {
    if (entries[i]!.text.trim() === '') continue;
    tail.unshift(entries[i]!.text);
    bump(i, 1000 - tail.length);
  }

  // 5. Choose lines by priority until the budget is spent (gap markers included), then render.
  // The budget is there to be used: a log that fits is kept whole (nothing folded), otherwise
  // whatever the windows leave is filled with the lines nearest the end, newest first.
  // Repeats and near-duplicates stay folded either way: they add no information.
  const hidden = (e: Entry) => e.folded === true || e.green === true;
  const rendered = entries.map((e) => {
    let t = e.text;
    if (e.count > 1) t += `  [×${e.count}]`;
    const similar = folded.get(e);
    if (similar) t += `  [+${similar} similar lines]`;
    return t;
  });
  let whole = 0;
  for (let i = 0; i < entries.length && whole <= budget; i++) {
    if (!hidden(entries[i]!)) whole += rendered[i]!.length + 1;
  }
  const fits = whole <= budget;
  const order: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (hidden(entries[i]!)) continue;
    if (fits) priority[i] = 1;
    if (priority[i]! > 0) order.push(i);
  }
  order.sort((a, b) => priority[b]! - priority[a]! || a - b);
  const keep = new Uint8Array(entries.length);
  const GAP_COST = 32;
  let used = 0;
  const take = (i: number) => {
    const prevKept = i > 0 && keep[i - 1] === 1;
    const nextKept = i + 1 < entries.length && keep[i + 1] === 1;
    // Joining two kept runs removes a gap marker; starting a new run may add one.
    const gapDelta = prevKept && nextKept ? -GAP_COST : prevKept || nextKept ? 0 : GAP_COST;
    const cost = rendered[i]!.length + 1 + gapDelta;
    if (used + cost > budget) return;
    keep[i] = 1;
    used += cost;
  };
  for (const i of order) take(i);
  // Fill what the windows left with the lines nearest the end, newest first.
  for (let i = entries.length - 1; i >= 0 && budget - used > 8; i--) {
    if (keep[i] !== 1 && !hidden(entries[i]!)) take(i);
  }
  const out: string[] = [];
  let omitted = 0;
  let keptLines = 0;
  const flushGap = () => {
    if (omitted > 0) out.push(`… [${omitted} line${omitted === 1 ? '' : 's'} omitted] …`);
    omitted = 0;
  };
  for (let i = 0; i < entries.length; i++) {
    if (keep[i]) {
      flushGap();
      out.push(rendered[i]!);
      keptLines += entries[i]!.count;
    } else if (!hidden(entries[i]!)) {
      omitted += entries[i]!.count;
    }
  }
  flushGap();
  let text = out.join('\n');
  if (text.length > budget) text = text.slice(text.length - budget);

  const decisive: DecisiveLine[] = [];
  for (const e of entries) {
    if (e.score >= 80 && e.kind === 'error' && !e.folded) {
      decisive.push({
        line: e.line,
        text: e.text.trim(),
        message: e.bare.trim(),
        score: e.score,
        category: e.category,
        occurrences: e.count + (folded.get(e) ?? 0),
        section: sections[e.section]?.name,
      });
    }
  }
  const lastWords = lastWordEntries.map((e) => ({
    line: e.line,
    text: e.text.trim(),
    message: e.bare.trim(),
    score: e.score,
    category: e.category,
    occurrences: e.count,
    section: sections[e.section]?.name,
  }));
  // Every PASSING_RUN alternative is anchored at the line start, so V8 tries position 0 only: a
  // substring pre-check would cost more than the test.
  const passingRuns = entries.filter((e) => PASSING_RUN.test(e.bare)).map((e) => e.line);
  let exitCode: number | undefined;
  for (let i = entries.length - 1; i >= 0 && exitCode === undefined; i--) {
    const m = /(?:exit code|exit status|exited with code|returned a non-zero code:) (\d+)/i.exec(
      entries[i]!.text,
    );
    if (m) exitCode = Number(m[1]);
  }

  return {
    text,
    originalChars: raw.length,
    totalLines,
    keptLines,
    sections,
    failingSection,
    // A GitHub Actions log echoes no `$ command`: its failing step's `Run …` header names it.
    failingCommand:
      failingCommand ??
      (step
        ? entries[step.header]!.bare.replace(GHA_STEP_START, '').trim() || undefined
        : undefined),
    decisive,
    exitCode,
    tail,
    lastWords,
    sameAsGreen,
    image,
    passingRuns,
    failingStep: step && {
      startLine: entries[step.header]!.line,
      endLine: entries[step.verdict]!.line,
    },
  };
}

const GHA_STEP_START = /^##\[group\]Run /;

/**
 * The entries of the GitHub Actions step that failed: its `##[group]Run …` header and the runner's
 * verdict that ends it (the first failed-command verdict in the log).
 */
function failingStepOf(entries: Entry[]): { header: number; verdict: number } | undefined {
  const verdict = entries.findIndex((e) => COMMAND_VERDICT.test(e.bare));
  if (verdict === -1) return undefined;
  for (let i = verdict; i >= 0; i--) {
    if (GHA_STEP_START.test(entries[i]!.bare)) return { header: i, verdict };
  }
  return undefined;
}
