import { expect, it } from 'vitest';
import {
  classifyLine,
  stripCiPrefix,
  type FailureCategory,
  type LineKind,
} from '../distill/line-rules.ts';

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
