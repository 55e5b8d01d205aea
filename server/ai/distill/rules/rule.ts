/**
 * What a line rule is, and how rules are grouped: a family owns the words its lines hold (`hints`,
 * from which the prefilter is built), its named rules, the advice for what they find, and the
 * table of lines beside it that proves them (`<family>.test.ts`).
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

/** One classification rule, as a family declares it (its name is the key it is declared under). */
export interface LineRule {
  re: RegExp;
  /** How much a matching line explains the failure (80 and above: a decisive line). */
  score: number;
  kind: LineKind;
  /** The root cause a matching line names, if it names one. */
  category?: FailureCategory;
}

/** A rule with its full name, `<family>/<rule>` (e.g. `gitlab-runner/job-failed`). */
export interface NamedRule<Name extends string = string> extends LineRule {
  name: Name;
}

/**
 * A hint the prefilter looks for where a word cannot say it: `test` checks the line at a position
 * where one of `starts` (three lower-case characters) begins.
 */
export interface HintPattern {
  /** What the pattern finds, in words. */
  describe: string;
  starts: readonly string[];
  test: (line: string, at: number) => boolean;
}

/**
 * Something every line a family's rules match holds, in any case: a lower-case word or phrase, a
 * single mark character above ASCII (`✕`), a line start (a RegExp beginning with `^`), or a
 * HintPattern.
 */
export type Hint = string | RegExp | HintPattern;

/**
 * Advice for a failure a family's rules recognise, shaped like the offline analyser's specific
 * advice: its `steps` apply when the diagnosis has `category` and the quoted evidence matches `when`.
 */
export interface FamilyAdvice {
  category: FailureCategory;
  when: RegExp;
  steps: string[];
  /** The steps replace the category's general advice instead of coming before it. */
  instead?: boolean;
  /** Add the "reproduce it locally" step after these. */
  reproduce?: boolean;
}

/** A family of rules as defineFamily returns it: rules named and in declaration order. */
export interface RuleFamily<Family extends string = string, Rule extends string = string> {
  name: Family;
  hints: readonly Hint[];
  rules: readonly NamedRule<`${Family}/${Rule}`>[];
  advice: readonly FamilyAdvice[];
}

/**
 * Declares a family: `rules` maps each rule's short name (kebab-case) to the rule; the family's
 * name prefixes it. Which rule wins a line is decided by the precedence list, not by this order.
 */
export function defineFamily<const Family extends string, Rule extends string>(spec: {
  name: Family;
  hints: readonly Hint[];
  rules: Record<Rule, LineRule>;
  advice?: readonly FamilyAdvice[];
}): RuleFamily<Family, Rule> {
  const rules = (Object.entries(spec.rules) as [Rule, LineRule][]).map(([rule, r]) => ({
    name: `${spec.name}/${rule}` as const,
    ...r,
  }));
  return { name: spec.name, hints: spec.hints, rules, advice: spec.advice ?? [] };
}
