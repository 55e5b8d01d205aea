import { expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import type { AdviceName } from '../distill/rules/families.ts';
import type { RuleCase } from '../distill/rules/rule-tester.ts';
import type { FailureCategory, RuleFamily } from '../distill/rules/rule.ts';
import type { Diagnosis } from '../findings.ts';
import { diagnose } from '../offline/diagnosis.ts';

// The line tables themselves live beside their rule families (server/ai/distill/rules/families/),
// run by rules/rule-tester.ts; these helpers check what the analyser makes of whole logs.

/** The offline diagnosis of a log given as lines, as the service makes it. */
export function diagnoseLines(lines: string[]): Diagnosis {
  return diagnose(distillLog(lines.join('\n')));
}

/** A diagnosis's quoted evidence as one text, to look for the line it should quote. */
export function quotedText(d: Diagnosis): string {
  return d.evidence.map((e) => e.text).join('\n');
}

/** Diagnoses a log given as lines and checks its category and, if given, a text it must quote. */
export function expectDiagnosis(
  lines: string[],
  category: FailureCategory,
  quotes?: string,
): Diagnosis {
  const d = diagnoseLines(lines);
  expect(d.category).toBe(category);
  if (quotes !== undefined) expect(quotedText(d)).toContain(quotes);
  return d;
}

/** A family's advice and the line of its tables (by its `what`) that must get it. */
export interface AdviceCase {
  advice: AdviceName;
  what: string;
}

/**
 * Checks a family's advice on its own lines: a job log ending in each case's line is diagnosed
 * with the advice's category and gets its steps first; every advice of the family has a case.
 */
export function itGivesFamilyAdvice(
  family: RuleFamily,
  table: readonly RuleCase[],
  cases: readonly AdviceCase[],
): void {
  it.each(cases)('$advice: $what', ({ advice, what }) => {
    const entry = family.advice.find((a) => a.name === advice);
    const line = table.find((c) => c.what === what)?.line;
    expect(entry, `${family.name} declares ${advice}`).toBeDefined();
    expect(line, `a line of ${family.name}'s tables is "${what}"`).toBeDefined();
    const d = diagnoseLines(['$ ./ci/run.sh', line!, 'ERROR: Job failed: exit code 1']);
    expect(d.category).toBe(entry!.category);
    expect(d.nextSteps.slice(0, entry!.steps.length)).toEqual(entry!.steps);
  });
  it(`applies each ${family.name} advice to a line of its tables`, () => {
    const covered = new Set<string>(cases.map((c) => c.advice));
    expect(family.advice.map((a) => a.name).filter((name) => !covered.has(name))).toEqual([]);
  });
}
