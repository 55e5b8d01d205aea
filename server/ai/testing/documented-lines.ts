import { expect } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import type { FailureCategory } from '../distill/rules/rule.ts';
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
