/**
 * Runs a rule family's table of lines, as ESLint's RuleTester runs a rule's valid and invalid
 * cases: each line must be decided by the named rule, pass its family's own prefilter, and keep
 * its lookalikes out of its category.
 */
import { expect, it } from 'vitest';
import { stripAnsi } from '../clean-log.ts';
import { stripCiPrefix } from '../ci-prefix.ts';
import { distillLog } from '../log-distiller.ts';
import { classifyLine } from './classify-line.ts';
import { familyOf, type RuleName } from './families.ts';
import { prefilterOf } from './prefilter.ts';
import type { FailureCategory, LineKind, RuleFamily } from './rule.ts';

/** A line a rule must decide, as a tool's documentation or source prints it or a public log quotes it. */
export interface RuleCase {
  /** What the line is, in words. */
  what: string;
  /** Where its wording was checked: the tool's documentation or source, or the log it is quoted from. */
  from: string;
  /** The line as printed, CI prefixes and ANSI escapes included (they are stripped first). */
  line: string;
  /** The rule that gives the line its score and kind. */
  rule: RuleName;
  /** The rule that gives its category, when it is not `rule`. */
  categoryRule?: RuleName;
  /** Its category; omitted when no rule gives it one. */
  category?: FailureCategory;
  /** How the distiller treats it (default `error`). */
  kind?: LineKind;
  /** A line like it that must not take its category. */
  lookalike?: string;
}

/** A line like a family's failure that is not one: a warning, an echoed command, a passing run. */
export interface Lookalike {
  what: string;
  line: string;
  /** The category it must not take. */
  not: FailureCategory;
}

/** A family's tables: lines from documentation, lines quoted from real logs, and lookalikes. */
export interface FamilyTables {
  documented?: RuleCase[];
  /** Also kept as decisive lines by the distiller, in a log of their own. */
  quoted?: RuleCase[];
  lookalikes?: Lookalike[];
}

const bareLine = (line: string) => stripCiPrefix(stripAnsi(line));

function expectRuleCase(c: RuleCase): void {
  const bare = bareLine(c.line);
  const got = classifyLine(bare);
  const kind = c.kind ?? 'error';
  expect({
    rule: got.rule,
    categoryRule: got.categoryRule,
    kind: got.kind,
    category: got.category,
  }).toEqual({
    rule: c.rule,
    categoryRule: c.category === undefined ? undefined : (c.categoryRule ?? c.rule),
    kind,
    category: c.category,
  });
  if (kind !== 'warning') expect(got.score).toBeGreaterThanOrEqual(80);
  // The family that declares a rule names a word the line holds: without it, the prefilter built
  // from all families would pass the line only by another family's words.
  for (const name of [c.rule, c.categoryRule]) {
    if (name === undefined) continue;
    const family = familyOf(name)!;
    expect(prefilterOf(family.hints).test(bare), `${family.name}'s hints pass "${bare}"`).toBe(
      true,
    );
  }
  if (c.lookalike !== undefined && c.category !== undefined) {
    expectLookalike({ what: c.what, line: c.lookalike, not: c.category });
  }
}

function expectLookalike({ line, not }: Lookalike): void {
  const got = classifyLine(bareLine(line));
  expect(got.category, `${got.categoryRule} reads "${line}" as ${not}`).not.toBe(not);
}

/**
 * The checks every family's test file makes on its tables, and that each of the family's rules
 * decides at least one line of them.
 */
export function itClassifiesFamilyLines(family: RuleFamily, tables: FamilyTables): void {
  const { documented = [], quoted = [], lookalikes = [] } = tables;
  if (documented.length > 0) it.each(documented)('$rule: $what', expectRuleCase);
  if (quoted.length > 0) {
    it.each(quoted)('$rule: $what (quoted)', (c) => {
      expectRuleCase(c);
      // Without the prefix stripped, anchored rules would miss it; with it, the distiller finds it.
      const d = distillLog(`setup\n${c.line}\nteardown\n`);
      // (A very long line is kept cut in the middle: compare its start.)
      expect(d.decisive.map((x) => x.text.slice(0, 120))).toContain(
        stripAnsi(c.line).trim().slice(0, 120),
      );
    });
  }
  if (lookalikes.length > 0) it.each(lookalikes)('does not read a $what as $not', expectLookalike);
  it(`decides a line of its tables with each ${family.name} rule`, () => {
    const decided = new Set<string>(
      [...documented, ...quoted].flatMap((c) => [c.rule, c.categoryRule ?? c.rule]),
    );
    expect(family.rules.map((r) => r.name).filter((name) => !decided.has(name))).toEqual([]);
  });
}
