import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadRealLogs, REAL_LOGS_DIR, realLogsPresent } from './index.ts';
import { describeWithRealLogs } from './skip-without-corpus.ts';

// The corpus is the evidence for issue 11's "holds on real CI logs" figures: these checks keep it honest.
const logs = realLogsPresent ? loadRealLogs() : [];

describeWithRealLogs('real-log corpus', () => {
  it('has at least 60 failed logs from at least 6 CI systems and 8 ecosystems', () => {
    expect(logs.length).toBeGreaterThanOrEqual(60);
    expect(new Set(logs.map((l) => l.ciSystem)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(logs.map((l) => l.ecosystem)).size).toBeGreaterThanOrEqual(8);
  });

  it('has every decisive line verbatim in its log', () => {
    const missing = logs.flatMap((l) =>
      l.decisive.filter((d) => !l.text.includes(d)).map((d) => `${l.id}: ${d}`),
    );
    expect(missing).toEqual([]);
  });

  it('gives every entry a source URL, a licence, a category and a split', () => {
    for (const l of logs) {
      expect(l.sourceUrl, l.id).toMatch(/^https:\/\//);
      expect(l.licence.length, l.id).toBeGreaterThan(0);
      expect(l.category, l.id).toBeTruthy();
      expect(['dev', 'holdout'], l.id).toContain(l.split);
      expect(l.text.length, l.id).toBeGreaterThan(0);
    }
  });

  it('holds out about a third, spread over several CI systems and ecosystems', () => {
    const holdout = logs.filter((l) => l.split === 'holdout');
    expect(holdout.length / logs.length).toBeGreaterThan(0.28);
    expect(holdout.length / logs.length).toBeLessThan(0.4);
    expect(new Set(holdout.map((l) => l.ciSystem)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(holdout.map((l) => l.ecosystem)).size).toBeGreaterThanOrEqual(5);
  });

  it('pairs at least 5 failed logs with a green log of the same job', () => {
    const pairs = logs.filter((l) => l.greenText !== undefined);
    expect(pairs.length).toBeGreaterThanOrEqual(5);
    expect(logs.filter((l) => l.green && l.greenText === undefined).map((l) => l.id)).toEqual([]);
    for (const p of pairs) expect(p.greenText!.length, p.id).toBeGreaterThan(0);
  });

  it('has no log file without an index entry or stored twice, and stays under 30 MB', () => {
    const files = readdirSync(REAL_LOGS_DIR);
    const ids = new Set(logs.map((l) => l.id));
    const logFiles = files.filter((f) => /\.log(\.gz)?$/.test(f));
    const orphans = logFiles.filter((f) => !ids.has(f.replace(/(\.green)?\.log(\.gz)?$/, '')));
    expect(orphans).toEqual([]);
    // A log is stored once: plain, or gzip-compressed when large.
    const twice = logFiles.filter((f) => f.endsWith('.gz') && files.includes(f.slice(0, -3)));
    expect(twice).toEqual([]);
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(REAL_LOGS_DIR, f)).size, 0);
    // 30 MB in the decimal sense, the stricter reading of the issue.
    expect(bytes).toBeLessThan(30_000_000);
  });

  it("keeps a second annotator's categories for development logs only, agreeing on most", () => {
    // The categories' definitions are clear enough that two people reading the same root cause
    // mostly agree (the corpus README); a held-out log here would have been read for more than its score.
    const { labels } = JSON.parse(
      readFileSync(path.join(REAL_LOGS_DIR, 'second-annotator.json'), 'utf8'),
    ) as { labels: { id: string; category: string }[] };
    const byId = new Map(logs.map((l) => [l.id, l]));
    expect(labels.filter((x) => byId.get(x.id)?.split !== 'dev').map((x) => x.id)).toEqual([]);
    expect(new Set(labels.map((x) => x.id)).size).toBe(labels.length);
    const agree = labels.filter((x) => byId.get(x.id)!.category === x.category).length;
    expect(agree / labels.length).toBeGreaterThanOrEqual(0.85);
  });
});
