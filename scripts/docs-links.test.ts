import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { composeService } from '../server/compose.ts';
import type { OpenApiDocument } from '../server/http/openapi.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { demoConfig } from '../server/testing/demo-config.ts';
import {
  brokenLinks,
  documentationFiles,
  githubSlug,
  headingAnchors,
  markdownLinks,
} from './docs-links.ts';

const root = path.resolve(import.meta.dirname, '..');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A tiny repository of Markdown files in a temp dir. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-docs-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('the link checker', () => {
  it('makes the anchors GitHub makes', () => {
    expect(githubSlug('Polling and GitLab cost')).toBe('polling-and-gitlab-cost');
    expect(githubSlug('GET /api/pipelines/{projectId}/details/{pipelineId}')).toBe(
      'get-apipipelinesprojectiddetailspipelineid',
    );
    expect(githubSlug('What’s new: 3.1 — in short')).toBe('whats-new-31--in-short');
    const anchors = headingAnchors(
      [
        '# Title',
        '## `serve` flags',
        '## Notes',
        '```sh',
        '# not a heading',
        '```',
        '## Notes',
        '<a id="custom"></a>',
      ].join('\n'),
    );
    expect([...anchors]).toEqual(['title', 'serve-flags', 'notes', 'notes-1', 'custom']);
  });

  it('finds links in prose, not in code', () => {
    const links = markdownLinks(
      [
        'See [the API](docs/api.md#errors) and ![shot](docs/screenshot.png "The dashboard").',
        'Inline `[not](a-link.md)` code.',
        '```',
        '[also not](b.md)',
        '```',
        '[ref]: docs/configuration.md',
      ].join('\n'),
    );
    expect(links).toEqual([
      { target: 'docs/api.md#errors', line: 1 },
      { target: 'docs/screenshot.png', line: 1 },
      { target: 'docs/configuration.md', line: 6 },
    ]);
  });

  it('fails on a missing file and on an anchor no heading has', () => {
    const dir = fixture({
      'README.md': [
        '# Readme',
        '[fine](docs/a.md#second-part) [fine too](#readme) [web](https://example.com/x.md)',
        '[gone](docs/missing.md) [wrong anchor](docs/a.md#third-part) [self](#nowhere)',
        '[code line](src/x.ts#L3) [code anchor](src/x.ts#intro)',
      ].join('\n'),
      'docs/a.md': '# A\n\n## Second part\n\n[back](../README.md#readme)\n',
      'src/x.ts': 'export {};\n',
    });
    expect(brokenLinks(dir, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:3: docs/missing.md (no such file)',
      'README.md:3: docs/a.md#third-part (no heading with this anchor)',
      'README.md:3: #nowhere (no heading with this anchor)',
      'README.md:4: src/x.ts#intro (no heading with this anchor)',
    ]);
  });
});

describe('the documentation', () => {
  it('covers README.md, CHANGELOG.md and docs/', () => {
    const files = documentationFiles(root);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/api.md']));
  });

  it('has no broken relative link or anchor', () => {
    expect(brokenLinks(root, documentationFiles(root))).toEqual([]);
  });

  it("describes every route of GET /api/openapi.json under the heading the route's docs name", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ps-docs-api-'));
    temps.push(dataDir);
    const service = await composeService(demoConfig(dataDir), { logger: silentLogger, env: {} });
    try {
      const doc = (await (
        await fetch(`${service.url}/api/openapi.json`)
      ).json()) as OpenApiDocument;
      const named = Object.values(doc.paths).flatMap((ops) =>
        Object.values(ops).map((op) => {
          const ok = op.responses['200'] as { description: string };
          return /docs\/api\.md#([\w-]+)/.exec(ok.description)?.[1];
        }),
      );
      const markdown = readFileSync(path.join(root, 'docs/api.md'), 'utf8');
      const routeHeadings = [...headingAnchors(markdown)].filter((a) =>
        /^(get|post|put|delete)-(api|ccxml$|metrics$)/.test(a),
      );
      // Every route has its heading, and docs/api.md describes no route the service lacks.
      expect(named.sort()).toEqual(routeHeadings.sort());
    } finally {
      await service.stop();
    }
  });
});
