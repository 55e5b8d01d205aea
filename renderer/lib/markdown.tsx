import type { ReactNode } from 'react';

/**
 * A small Markdown renderer for AI analyses that builds React elements directly — never HTML
 * strings — so model output cannot inject markup or scripts. Covers what analyses use: headings,
 * paragraphs, lists, block quotes, fenced code, rules, and inline code, bold, italic and links
 * (http, https and mailto only).
 */
export function Markdown({ source }: { source: string }): ReactNode {
  return <div className="markdown">{renderBlocks(source)}</div>;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' }
  | { kind: 'paragraph'; text: string };

/** Splits Markdown source into blocks. Exported for tests. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    const item = /^\s*([-*+]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      const items: string[] = [];
      while (i < lines.length) {
        const m = /^\s*([-*+]|(\d+)[.)])\s+(.*)$/.exec(lines[i]!);
        if (m && (m[2] !== undefined) === ordered) items.push(m[3]!);
        else if (lines[i]!.trim() !== '' && /^\s{2,}\S/.test(lines[i]!) && items.length > 0)
          items[items.length - 1] += ' ' + lines[i]!.trim();
        else break;
        i++;
      }
      blocks.push({ kind: 'list', ordered, start: ordered ? Number(item[2]) : 1, items });
      continue;
    }
    if (line.trimStart().startsWith('>')) {
      const body: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('>'))
        body.push(lines[i++]!.trimStart().replace(/^>\s?/, ''));
      blocks.push({ kind: 'quote', text: body.join('\n') });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !/^(#{1,6}\s|\s*```|\s*~~~|\s*([-*+]|\d+[.)])\s+|\s*>)/.test(lines[i]!)
    )
      para.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', text: para.join(' ') });
  }
  return blocks;
}

function renderBlocks(source: string): ReactNode[] {
  return parseBlocks(source).map((b, key) => {
    switch (b.kind) {
      case 'heading': {
        const Tag = `h${Math.min(6, b.level + 2)}` as 'h3';
        return <Tag key={key}>{renderInline(b.text)}</Tag>;
      }
      case 'code':
        return (
          <pre key={key} className="md-code" data-lang={b.lang || undefined}>
            <code>{b.text}</code>
          </pre>
        );
      case 'list':
        return b.ordered ? (
          <ol key={key} start={b.start}>
            {b.items.map((t, i) => (
              <li key={i}>{renderInline(t)}</li>
            ))}
          </ol>
        ) : (
          <ul key={key}>
            {b.items.map((t, i) => (
              <li key={i}>{renderInline(t)}</li>
            ))}
          </ul>
        );
      case 'quote':
        return <blockquote key={key}>{renderBlocks(b.text)}</blockquote>;
      case 'rule':
        return <hr key={key} />;
      default:
        return <p key={key}>{renderInline(b.text)}</p>;
    }
  });
}

const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|(?<![\w])_([^_\s][^_]*)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Only links a user can safely follow: http(s) and mailto. */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Renders inline Markdown to React nodes. Exported for tests. */
export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  // A fresh regex per call: nested calls (bold inside a link) must not share lastIndex.
  const re = new RegExp(INLINE.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) out.push(<code key={key++}>{m[2].trim()}</code>);
    else if (m[3] !== undefined || m[4] !== undefined)
      out.push(<strong key={key++}>{renderInline((m[3] ?? m[4])!)}</strong>);
    else if (m[5] !== undefined || m[6] !== undefined)
      out.push(<em key={key++}>{renderInline((m[5] ?? m[6])!)}</em>);
    else if (m[7] !== undefined) {
      const href = safeHref(m[8]!);
      out.push(
        href ? (
          <a key={key++} href={href} target="_blank" rel="noreferrer noopener">
            {renderInline(m[7])}
          </a>
        ) : (
          m[7]
        ),
      );
    }
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
