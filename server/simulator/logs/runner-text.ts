import { TOPICS } from '../commit-words.ts';
import type { SimProject } from '../model.ts';
import type { Rng } from '../random.ts';

// Escapes exactly as gitlab-runner writes them.
/** Erase to end of line (gitlab-runner starts most lines with it). */
export const CLEAR = '\x1b[0K';
/** Reset all attributes, gitlab-runner's spelling. */
export const RESET = '\x1b[0;m';
/** Bold cyan: section headers. */
export const CYAN = '\x1b[36;1m';
/** Bold green: commands and runner progress. */
export const GREEN = '\x1b[32;1m';
/** Bold red: job failure lines. */
export const RED = '\x1b[31;1m';
/** Yellow: warnings. */
export const YELLOW = '\x1b[0;33m';
/** Bold, as tools print it. */
export const BOLD = '\x1b[1m';
/** Plain reset, as tools print it. */
export const PLAIN = '\x1b[0m';

/** A collapsible section's start marker and header. */
export function sectionStart(ts: number, name: string, header: string): string {
  return `${CLEAR}section_start:${ts}:${name}\r${CLEAR}${CLEAR}${CYAN}${header}${RESET}`;
}

/** A section's end marker. */
export function sectionEnd(ts: number, name: string): string {
  return `section_end:${ts}:${name}\r${CLEAR}`;
}

/** A script command as the runner echoes it. */
export function cmdLine(cmd: string): string {
  return `${GREEN}$ ${cmd}${RESET}`;
}

/** The project's topics as snake_case words, used for file, package and test names. */
export function words(project: SimProject): string[] {
  return TOPICS[project.kind].map((t) =>
    t
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, ''),
  );
}

/** snake_case → CamelCase. */
export function camel(word: string): string {
  return word
    .split('_')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join('');
}

/** snake_case → kebab-case. */
export function kebab(word: string): string {
  return word.replace(/_/g, '-');
}

/** A random duration in seconds with millisecond digits. */
export function secs(rng: Rng, min: number, max: number): string {
  return rng.float(min, max).toFixed(3);
}
