/** What the failing command printed last: usually its error message when no rule knows the tool. */
import type { Entry, LogSection } from './log-entry.ts';
import { FRAME } from './stack-frame.ts';
import { COMMAND, COMMAND_VERDICT, LEAD_IN, WRAPPER } from './step-lines.ts';

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
export function findLastWords(entries: Entry[], failingSection: LogSection | undefined): Entry[] {
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
