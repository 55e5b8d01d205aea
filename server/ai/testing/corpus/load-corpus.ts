import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripAnsi } from '../../distill/log-distiller.ts';
import { CASES } from './cases.ts';
import { DECISIVE_MARK, type CorpusCase } from './runner-log.ts';

/** A corpus log ready for distillation: the raw log with markers removed, and what they marked. */
export interface CorpusLog {
  case: CorpusCase;
  raw: string;
  /** The visible text of each decisive line (ANSI removed, trimmed). */
  decisive: string[];
}

const dir = path.dirname(fileURLToPath(import.meta.url));

/** Reads every corpus `.log`, strips the decisive-line markers and returns what they marked. */
export function loadCorpus(): CorpusLog[] {
  return CASES.map((c) => {
    const marked = readFileSync(path.join(dir, `${c.name}.log`), 'utf8');
    const decisive: string[] = [];
    const lines = marked.split('\n').map((line) => {
      if (!line.startsWith(DECISIVE_MARK)) return line;
      const unmarked = line.slice(DECISIVE_MARK.length);
      const visible = stripAnsi(unmarked).split('\r').pop()!.trim();
      decisive.push(visible);
      return unmarked;
    });
    return { case: c, raw: lines.join('\n'), decisive };
  });
}
