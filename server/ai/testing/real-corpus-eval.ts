import { distillLog, stripAnsi, type DistilledLog } from '../distill/log-distiller.ts';
import { diagnose } from '../offline/diagnosis.ts';
import type { FailureCategory } from '../distill/rules/rule.ts';

/** The parts of a real-log corpus entry the evaluation reads. */
export interface EvaluatedLog {
  id: string;
  text: string;
  decisive: string[];
  category: FailureCategory;
  greenText?: string | undefined;
}

/** Whether a decisive line (verbatim from the raw log) is in a distilled excerpt. */
export function excerptHas(excerpt: string, decisive: string): boolean {
  const line = stripAnsi(decisive).replace(/\r/g, '').trim();
  return excerpt.includes(line);
}

/**
 * Whether a quoted evidence line names the decisive line: one contains the other (prefixes such
 * as timestamps may differ), and the shared part is the message, not a fragment of it.
 */
export function names(evidence: string, decisive: string): boolean {
  const a = stripAnsi(evidence).trim();
  const b = stripAnsi(decisive).trim();
  if (a.length === 0 || b.length === 0) return false;
  return (
    (a.includes(b) && b.length >= 12) || (b.includes(a) && a.length >= Math.min(30, b.length * 0.6))
  );
}

/** Distiller and analyser figures over a set of real logs. */
export interface CorpusFigures {
  logs: number;
  decisive: number;
  kept: number;
  rawChars: number;
  distilledChars: number;
  categoryRight: number;
  rootCauseNamed: number;
  /** Per log: what went wrong, for development. */
  misses: {
    id: string;
    lostLines: string[];
    category: FailureCategory;
    expected: FailureCategory;
    named: boolean;
  }[];
}

/** How many of the analyser's quoted lines count as "naming the root cause" (the first block). */
export const NAMED_WITHIN = 3;

/** Distils and diagnoses every log and counts recall, size, category and named root cause. */
export function evaluateCorpus(
  logs: EvaluatedLog[],
  distil: (log: EvaluatedLog) => DistilledLog = (l) => distillLog(l.text),
): CorpusFigures {
  const f: CorpusFigures = {
    logs: logs.length,
    decisive: 0,
    kept: 0,
    rawChars: 0,
    distilledChars: 0,
    categoryRight: 0,
    rootCauseNamed: 0,
    misses: [],
  };
  for (const log of logs) {
    const d = distil(log);
    f.rawChars += log.text.length;
    f.distilledChars += d.text.length;
    const lost = log.decisive.filter((line) => !excerptHas(d.text, line));
    f.decisive += log.decisive.length;
    f.kept += log.decisive.length - lost.length;
    const diagnosis = diagnose(d);
    const right = diagnosis.category === log.category;
    const quoted = diagnosis.evidence.slice(0, NAMED_WITHIN).map((e) => e.text);
    const named = log.decisive.some((line) => quoted.some((q) => names(q, line)));
    if (right) f.categoryRight++;
    if (named) f.rootCauseNamed++;
    if (lost.length > 0 || !right || !named) {
      f.misses.push({
        id: log.id,
        lostLines: lost,
        category: diagnosis.category,
        expected: log.category,
        named,
      });
    }
  }
  return f;
}
