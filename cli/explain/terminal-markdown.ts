/**
 * The Markdown an analysis is written in, drawn with ANSI styles for a terminal: headings, bold,
 * italics, inline code, fenced code blocks, bullet and numbered lists, quotes and links — what
 * the offline analyser (server/ai/offline/report.ts) and chat models write. Anything else passes
 * through as text. Piped output prints the Markdown itself instead (as `gh` and `glab` do), so
 * this renderer only ever runs for a TTY.
 */

const BOLD = ['\x1b[1m', '\x1b[22m'] as const;
const ITALIC = ['\x1b[3m', '\x1b[23m'] as const;
const UNDERLINE = ['\x1b[4m', '\x1b[24m'] as const;
const DIM = ['\x1b[2m', '\x1b[22m'] as const;
const CODE = ['\x1b[36m', '\x1b[39m'] as const;

const style = (text: string, [on, off]: readonly [string, string]) => `${on}${text}${off}`;

const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,3})[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;

/** Inline spans: `code` first (nothing inside it is styled), then links, bold, italics. */
export function renderInline(text: string): string {
  const parts = text.split(/(`+)(.+?)\1/);
  let out = '';
  // split with two capture groups yields [text, ticks, code, text, ticks, code, …].
  for (let i = 0; i < parts.length; i += 3) {
    out += renderEmphasis(parts[i] ?? '');
    const code = parts[i + 2];
    if (code !== undefined) out += style(code, CODE);
  }
  return out;
}

function renderEmphasis(text: string): string {
  return (
    text
      // [label](url) → label (url), the url underlined so terminals that detect links find it.
      .replace(/\[([^\]]+)\]\((\S+?)\)/g, (_, label: string, url: string) =>
        label === url ? style(url, UNDERLINE) : `${label} (${style(url, UNDERLINE)})`,
      )
      .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__/g, (_, a?: string, b?: string) =>
        style(a ?? b ?? '', BOLD),
      )
      // Single * or _ around words; an underscore inside a word (snake_case) is not emphasis.
      .replace(
        /(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])/g,
        (_, a?: string, b?: string) => style(a ?? b ?? '', ITALIC),
      )
  );
}

/** Renders a Markdown document for a terminal; the result ends with a newline. */
export function renderMarkdown(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) {
        fence = undefined;
        continue;
      }
      // Code is shown as written, behind a gutter, so it can be copied and read apart from prose.
      out.push(`${style('  │ ', DIM)}${style(line, CODE)}`);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const text = renderInline(heading[2]!);
      out.push(heading[1]!.length <= 2 ? style(style(text, BOLD), UNDERLINE) : style(text, BOLD));
      continue;
    }
    if (RULE.test(line)) {
      out.push(style('─'.repeat(40), DIM));
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      out.push(`${bullet[1]}  • ${renderInline(bullet[2]!)}`);
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      out.push(`${numbered[1]}  ${numbered[2]}. ${renderInline(numbered[3]!)}`);
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      out.push(`${style('  ▌ ', DIM)}${style(renderInline(quote[1]!), ITALIC)}`);
      continue;
    }
    out.push(renderInline(line));
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
