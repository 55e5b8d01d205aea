// Checks the documentation's relative links the way GitHub resolves them: a link's file must exist
// and its `#anchor` must be the slug of a heading in the file it points at. Used by
// docs-links.test.ts over README.md, CHANGELOG.md and docs/**/*.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A link found in a Markdown text, with the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/**
 * GitHub's anchor for a heading's text (github-slugger's rule): lower case, every character that is
 * not a letter, mark, digit, connector, space or hyphen dropped, each space a hyphen.
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's Markdown as GitHub renders its text: code, links, emphasis and tags unwrapped. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*+/g, '')
    .replace(/(^|\W)_+|_+(?=\W|$)/g, '$1')
    .trim();
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) out.push({ text, line: i + 1 });
  });
  return out;
}

/** The anchors of a Markdown file: its headings' slugs (repeats numbered as GitHub does) and HTML ids. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (heading) {
      const slug = githubSlug(headingText(heading[1]!));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The links of a Markdown text outside code: inline links, images and reference definitions. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: m[1]!, line });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition) links.push({ target: definition[1]!, line });
  }
  return links;
}

/**
 * Every relative link of `files` (paths relative to `root`) that does not resolve, as
 * `file:line: target (why)`. Links with a scheme (https:, mailto:) are not followed.
 */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let set = anchorsOf.get(file);
    if (!set) anchorsOf.set(file, (set = headingAnchors(readFileSync(file, 'utf8'))));
    return set;
  };
  const problems: string[] = [];
  for (const file of files) {
    const absolute = path.resolve(root, file);
    for (const { target, line } of markdownLinks(readFileSync(absolute, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const linkPath = decodeURI(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved =
        linkPath === ''
          ? absolute
          : linkPath.startsWith('/')
            ? path.join(root, linkPath)
            : path.resolve(path.dirname(absolute), linkPath);
      const where = `${file}:${line}: ${target}`;
      if (!existsSync(resolved)) {
        problems.push(`${where} (no such file)`);
      } else if (anchor !== undefined) {
        const isMarkdown = resolved.endsWith('.md') && statSync(resolved).isFile();
        // GitHub's line anchors (#L12) work on any file it shows as code.
        if (isMarkdown ? !anchors(resolved).has(anchor) : !/^L\d+(-L\d+)?$/.test(anchor)) {
          problems.push(`${where} (no heading with this anchor)`);
        }
      }
    }
  }
  return problems;
}

/** The documentation the link test covers: README.md, CHANGELOG.md and every .md under docs/. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) return walk(relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', 'CHANGELOG.md', ...walk('docs')];
}
