/**
 * The classifier: what one cleaned log line is worth, by the rules of every family in the order
 * precedence.ts states.
 */
import { FAMILIES } from './families.ts';
import { COMPILER_WARNING, isErrorLookalike } from './lookalikes.ts';
import { RULE_PRECEDENCE } from './precedence.ts';
import { prefilterOfFamilies } from './prefilter.ts';
import type { FailureCategory, LineKind, NamedRule } from './rule.ts';

/** The result of classifying one line. */
export interface LineClass {
  score: number;
  kind: LineKind;
  category: FailureCategory | undefined;
  /** The rule that gave the score and kind (see precedence.ts); undefined when none matched. */
  rule: string | undefined;
  /** The rule that gave the category (often `rule` itself); undefined without a category. */
  categoryRule: string | undefined;
}

/** The name LineClass.rule carries for a compiler's warning or note (lookalikes.ts). */
export const COMPILER_WARNING_RULE = 'lookalikes/compiler-warning';
/** The name LineClass.rule carries for an error rule's match that says nothing failed. */
export const NOT_AN_ERROR_RULE = 'lookalikes/not-an-error';

/** Case-insensitive prefilter built from every family's hints: a line failing it matches no rule. */
export const HINT = prefilterOfFamilies(FAMILIES);

const BY_NAME = new Map<string, NamedRule>(
  FAMILIES.flatMap((f) => f.rules.map((r) => [r.name, r])),
);
/** Every rule in precedence order. */
const RULES: readonly NamedRule[] = RULE_PRECEDENCE.map((name) => BY_NAME.get(name)!);
if (new Set(RULE_PRECEDENCE).size !== RULE_PRECEDENCE.length || RULES.length !== BY_NAME.size) {
  throw new Error('RULE_PRECEDENCE names every rule exactly once');
}

const NONE: LineClass = {
  score: 0,
  kind: 'noise',
  category: undefined,
  rule: undefined,
  categoryRule: undefined,
};
const WARNING: LineClass = {
  score: 30,
  kind: 'warning',
  category: undefined,
  rule: COMPILER_WARNING_RULE,
  categoryRule: undefined,
};

// Most lines that pass the prefilter match no error rule ("warning", "shared", "signal"). A few
// regexes holding the alternatives of every other rule find that in a few scans of the line
// instead of one scan per rule (one of them matches exactly when one of the rules does); only then
// do all rules run, to learn which match. Each holds rules of one flag set and stays below V8's
// 20 KiB pattern size (kRegExpTooLargeToOptimize in https://github.com/v8/v8/blob/main/src/regexp/regexp.h),
// above which V8 neither optimises nor compiles it to machine code: one combined pattern just over
// it made classifying the development corpus 3.5 times slower.
const OTHER_RULES = RULES.filter((r) => r.kind !== 'warning');
const ANY_RULE_MAX_SOURCE = 16_000;
function anyOf(rules: readonly NamedRule[]): RegExp[] {
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
      if (part.length > ANY_RULE_MAX_SOURCE)
        throw new Error(`line rule ${r.name} is too long to combine`);
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
const WARNING_RULES = RULES.filter((r) => r.kind === 'warning');

/** Classifies one cleaned log line (see precedence.ts for how the matching rules combine). */
export function classifyLine(line: string): LineClass {
  if (!HINT.test(line)) return NONE;
  if (COMPILER_WARNING.test(line)) return WARNING;
  let best: NamedRule | undefined;
  let categoryRule: NamedRule | undefined;
  const rules = ANY_RULES.some((re) => re.test(line)) ? RULES : WARNING_RULES;
  for (const rule of rules) {
    if (rule.re.test(line)) {
      if (!best || rule.score > best.score) best = rule;
      if (categoryRule === undefined && rule.category !== undefined) categoryRule = rule;
    }
  }
  if (!best) return NONE;
  if (best.kind === 'error' && isErrorLookalike(line)) {
    return {
      score: 10,
      kind: 'noise',
      category: undefined,
      rule: NOT_AN_ERROR_RULE,
      categoryRule: undefined,
    };
  }
  return {
    score: best.score,
    kind: best.kind,
    category: categoryRule?.category,
    rule: best.name,
    categoryRule: categoryRule?.name,
  };
}
