/**
 * The cheap test every log line meets before any rule runs: a line holding none of the families'
 * hints (see Hint in rule.ts) cannot match a rule, which keeps a 4 MiB log fast.
 */
import type { Hint, HintPattern, RuleFamily } from './rule.ts';

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

/** A compiler's error code after a colon (`: ts2322`, `: cs0246`): `: [a-z]{1,5}\d{3}`, any case. */
export const ERROR_CODE_HINT: HintPattern = {
  describe: 'an error code such as `: TS2322`',
  starts: Array.from({ length: 26 }, (_, k) => `: ${String.fromCharCode(97 + k)}`),
  // Letters are never digits: taking them greedily decides it.
  test(s, i) {
    if (s.charCodeAt(i) !== 58 || s.charCodeAt(i + 1) !== 32) return false;
    let j = i + 2;
    while (j < s.length && j - i < 7 && isLetter(s.charCodeAt(j))) j++;
    return (
      j > i + 2 &&
      isDigit(s.charCodeAt(j)) &&
      isDigit(s.charCodeAt(j + 1)) &&
      isDigit(s.charCodeAt(j + 2))
    );
  },
};

/** A Go source position (`.go:12`), any case. */
export const GO_LOCATION_HINT: HintPattern = {
  describe: 'a Go source position such as `main.go:12`',
  starts: ['.go'],
  test: (s, i) => startsWithFolded(s, '.go:', i) && isDigit(s.charCodeAt(i + 4)),
};

// The prefilter runs on every line of a log, and a regex alternation of ~120 words costs V8 about
// 13 ns a character (it tries the alternatives at every position) plus a lower-cased copy of the
// line. Instead a rolling hash of the last three characters indexes a table holding every upper-
// and lower-case spelling of the words' first three characters; only on a hit are the few words
// (or patterns) starting there compared, ignoring case: about 3 ns a character, and no copy.
type HintCheck = string | ((line: string, at: number) => boolean);
const HASH_MASK = 0x7fff;

/** A line test built from hints: true when the line holds one of them (see Hint). */
export interface Prefilter {
  test(line: string): boolean;
}

/**
 * The prefilter for `hints`. Words that contain a shorter listed word (`failures` holds `fail`)
 * add nothing to it but may be listed, so a family's list reads as the vocabulary its rules use.
 */
export function prefilterOf(hints: readonly Hint[]): Prefilter {
  const words = [...new Set(hints.filter((h): h is string => typeof h === 'string'))];
  const marks = new Set<number>();
  const starts: string[] = [];
  const table = new Uint16Array(HASH_MASK + 1);
  const buckets: HintCheck[][] = [[]];
  const addHint = (word: string, check: HintCheck) => {
    let spellings = [''];
    for (const ch of word.slice(0, 3)) {
      spellings = spellings.flatMap((p) => [...new Set([ch, ch.toUpperCase()])].map((c) => p + c));
    }
    for (const t of spellings) {
      const h = ((t.charCodeAt(0) << 10) ^ (t.charCodeAt(1) << 5) ^ t.charCodeAt(2)) & HASH_MASK;
      if (table[h] === 0) {
        table[h] = buckets.length;
        buckets.push([]);
      }
      // Hash collisions only put unrelated words in one bucket: every check compares its own text.
      const bucket = buckets[table[h]!]!;
      if (!bucket.includes(check)) bucket.push(check);
    }
  };
  for (const w of words) {
    if (w.length === 1 && w.charCodeAt(0) >= 128) marks.add(w.charCodeAt(0));
    else if (w !== w.toLowerCase() || w.length < 3 || /[^\x20-\x7e]/.test(w)) {
      throw new Error(`a hint word is lower-case ASCII of three characters or more: ${w}`);
    } else if (!words.some((o) => o !== w && w.includes(o))) addHint(w, w);
  }
  for (const h of hints) {
    if (h instanceof RegExp) {
      if (!h.source.startsWith('^') || h.flags !== '') {
        throw new Error(`a line-start hint begins with ^ and has no flags: ${h}`);
      }
      const start = h.source.slice(1);
      if (!starts.includes(start)) starts.push(start);
    } else if (typeof h !== 'string') {
      for (const s of h.starts) addHint(s, h.test);
    }
  }
  const lineStart =
    starts.length > 0
      ? new RegExp(`^(?:${starts.map((s) => (s.includes('|') ? `(?:${s})` : s)).join('|')})`)
      : undefined;

  /**
   * Whether `line` holds a hint word, mark or pattern, ignoring case. A line with characters above
   * ASCII is read lower-cased (`lowered`), since toLowerCase turns some of them into ASCII letters
   * (the Kelvin sign into `k`); matches found before such a character stand either way.
   */
  function hasHint(line: string, lowered = false): boolean {
    let h = 0;
    for (let i = 0; i < line.length; i++) {
      let c = line.charCodeAt(i);
      if (c >= 128) {
        if (marks.has(c)) return true;
        if (!lowered) return hasHint(line.toLowerCase(), true);
        c = 127; // no word holds a character above ASCII
      }
      h = ((h << 5) ^ c) & HASH_MASK;
      if (i >= 2) {
        const bucket = table[h]!;
        if (bucket !== 0) {
          for (const check of buckets[bucket]!) {
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

  return { test: (line) => (lineStart?.test(line) ?? false) || hasHint(line) };
}

/** The prefilter of all families: a line that fails it matches no rule. */
export function prefilterOfFamilies(families: readonly RuleFamily[]): Prefilter {
  return prefilterOf(families.flatMap((f) => f.hints));
}
