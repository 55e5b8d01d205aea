/**
 * The distiller's last stage: lines chosen by priority until the budget is spent (gap markers
 * included), then rendered with their repeat counts and `… [N lines omitted] …` for the gaps.
 */
import type { Entry } from './log-entry.ts';

/** The rendered excerpt and how many log lines it shows. */
export interface Excerpt {
  text: string;
  /** Log lines represented in `text` (folded repeats count once). */
  keptLines: number;
}

// What a gap marker (`… [N lines omitted] …`) costs in the budget.
const GAP_COST = 32;

/**
 * Renders the excerpt of `entries` within `budget` characters, by `priority` (a log that fits is
 * kept whole); `folded` counts the near-duplicates folded into an entry.
 */
export function renderExcerpt(
  entries: Entry[],
  priority: Float64Array,
  folded: Map<Entry, number>,
  budget: number,
): Excerpt {
  // The budget is there to be used: a log that fits is kept whole (nothing folded), otherwise
  // whatever the windows leave is filled with the lines nearest the end, newest first.
  // Repeats and near-duplicates stay folded either way: they add no information.
  const hidden = (e: Entry) => e.folded === true || e.green === true;
  const rendered = entries.map((e) => {
    let t = e.text;
    if (e.count > 1) t += `  [×${e.count}]`;
    const similar = folded.get(e);
    if (similar) t += `  [+${similar} similar lines]`;
    return t;
  });
  let whole = 0;
  for (let i = 0; i < entries.length && whole <= budget; i++) {
    if (!hidden(entries[i]!)) whole += rendered[i]!.length + 1;
  }
  const fits = whole <= budget;
  const order: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (hidden(entries[i]!)) continue;
    if (fits) priority[i] = 1;
    if (priority[i]! > 0) order.push(i);
  }
  order.sort((a, b) => priority[b]! - priority[a]! || a - b);
  const keep = new Uint8Array(entries.length);
  let used = 0;
  const take = (i: number) => {
    const prevKept = i > 0 && keep[i - 1] === 1;
    const nextKept = i + 1 < entries.length && keep[i + 1] === 1;
    // Joining two kept runs removes a gap marker; starting a new run may add one.
    const gapDelta = prevKept && nextKept ? -GAP_COST : prevKept || nextKept ? 0 : GAP_COST;
    const cost = rendered[i]!.length + 1 + gapDelta;
    if (used + cost > budget) return;
    keep[i] = 1;
    used += cost;
  };
  for (const i of order) take(i);
  // Fill what the windows left with the lines nearest the end, newest first.
  for (let i = entries.length - 1; i >= 0 && budget - used > 8; i--) {
    if (keep[i] !== 1 && !hidden(entries[i]!)) take(i);
  }
  const out: string[] = [];
  let omitted = 0;
  let keptLines = 0;
  const flushGap = () => {
    if (omitted > 0) out.push(`… [${omitted} line${omitted === 1 ? '' : 's'} omitted] …`);
    omitted = 0;
  };
  for (let i = 0; i < entries.length; i++) {
    if (keep[i]) {
      flushGap();
      out.push(rendered[i]!);
      keptLines += entries[i]!.count;
    } else if (!hidden(entries[i]!)) {
      omitted += entries[i]!.count;
    }
  }
  flushGap();
  let text = out.join('\n');
  if (text.length > budget) text = text.slice(text.length - budget);
  return { text, keptLines };
}
