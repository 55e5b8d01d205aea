/**
 * What a line rule is, and how rules are grouped: a family owns the words its lines hold (`hints`,
 * from which the prefilter is built), its named rules, the named advice the offline analyser gives
 * for what they find, and the table of lines beside it that proves both (`<family>.test.ts`).
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
 * Advice for a failure a family's rules recognise precisely, in the failing tool's own terms: its
 * `steps` apply when the diagnosis has `category` and the decisive lines' text matches `when`.
 */
export interface FamilyAdvice {
  /** The category the diagnosis must have chosen. */
  category: FailureCategory;
  /** Matched against the decisive lines' text. */
  when: RegExp;
  steps: string[];
  /**
   * True when these steps replace the category's general advice, which would mislead (a coverage
   * gate is not a failing test to rerun).
   */
  instead?: boolean;
  /** Add the "reproduce it locally" step after these. */
  reproduce?: boolean;
}

/** Advice with its full name, `<family>/<advice>` (e.g. `deploy/state-locked`). */
export interface NamedAdvice<Name extends string = string> extends FamilyAdvice {
  name: Name;
}

/** A family of rules as defineFamily returns it: rules and advice named, in declaration order. */
export interface RuleFamily<
  Family extends string = string,
  Rule extends string = string,
  Advice extends string = string,
> {
  name: Family;
  hints: readonly Hint[];
  rules: readonly NamedRule<`${Family}/${Rule}`>[];
  advice: readonly NamedAdvice<`${Family}/${Advice}`>[];
}

/**
 * Declares a family: `rules` maps each rule's short name (kebab-case) to the rule, `advice` each
 * advice's; the family's name prefixes both. Which rule wins a line is decided by the precedence
 * list, not by this order, and so is the order advice applies in (precedence.ts).
 */
export function defineFamily<
  const Family extends string,
  Rule extends string,
  Advice extends string = never,
>(spec: {
  name: Family;
  hints: readonly Hint[];
  rules: Record<Rule, LineRule>;
  advice?: Record<Advice, FamilyAdvice>;
}): RuleFamily<Family, Rule, Advice> {
  const named = <Key extends string, T>(entries: Record<Key, T>) =>
    (Object.entries(entries) as [Key, T][]).map(([key, entry]) => ({
      name: `${spec.name}/${key}` as const,
      ...entry,
    }));
  return {
    name: spec.name,
    hints: spec.hints,
    rules: named(spec.rules),
    advice: spec.advice === undefined ? [] : named(spec.advice),
  };
}
