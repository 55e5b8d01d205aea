// Markdown that both the built-in analyser and the prompts write; it imports nothing, so any AI
// module can use it without forming an import cycle.

/** Wraps text in a Markdown code fence longer than any backtick run inside it. */
export function fence(text: string, lang = 'text'): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** Log lines as a fenced block, repeats counted (`line   (×3)`). */
export function quote(lines: readonly { text: string; occurrences: number }[]): string {
  return fence(
    lines.map((e) => (e.occurrences > 1 ? `${e.text}   (×${e.occurrences})` : e.text)).join('\n'),
  );
}
