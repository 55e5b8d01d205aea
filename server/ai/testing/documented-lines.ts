import { expect, it } from 'vitest';
import {
  classifyLine,
  stripCiPrefix,
  type FailureCategory,
  type LineKind,
} from '../distill/line-rules.ts';
import { distillLog } from '../distill/log-distiller.ts';
import type { Diagnosis } from '../findings.ts';
import { diagnose } from '../offline/diagnosis.ts';

/** A tool's failure line as its documentation or source prints it (`doc`), and what it means. */
export interface DocumentedLine {
  family: string;
  doc: string;
  line: string;
  category: FailureCategory;
  kind?: LineKind;
}

/** A line like a family's failure that is not one: a warning, an echoed command, a passing run. */
export interface Lookalike {
  family: string;
  line: string;
  not: FailureCategory;
}

/** A documented failure line paired with one lookalike that must not take its category. */
export interface DocumentedFamily extends DocumentedLine {
  lookalike: string;
}

/** itClassifiesDocumentedLines for families that each carry their own lookalike. */
export function itClassifiesFamilies(families: DocumentedFamily[], minScore?: number): void {
  itClassifiesDocumentedLines(
    families,
    families.map(({ family, lookalike, category }) => ({
      family: `${family} lookalike`,
      line: lookalike,
      not: category,
    })),
    minScore,
  );
}

/**
 * The checks every zero-shot rule file makes: each documented line, CI prefixes stripped, is an
 * error line (or the kind given) of its category, and no lookalike is an error line of that category.
 */
export function itClassifiesDocumentedLines(
  documented: DocumentedLine[],
  lookalikes: Lookalike[],
  minScore = 80,
): void {
  it.each(documented)('$family', ({ line, category, kind }) => {
    const c = classifyLine(stripCiPrefix(line));
    expect(c).toMatchObject({ kind: kind ?? 'error', category });
    expect(c.score).toBeGreaterThanOrEqual(minScore);
  });

  it.each(lookalikes)('does not read a $family as $not', ({ line, not }) => {
    const c = classifyLine(stripCiPrefix(line));
    expect(c.kind === 'error' && c.category === not).toBe(false);
  });
}

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
