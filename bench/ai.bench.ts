// AI analysis benchmarks: log distillation speed, size and recall over the corpus, and history
// page latency with 10,000 stored analyses. Baselines are measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distillLog, stripAnsi } from '../server/ai/distill/log-distiller.ts';
import { AnalysisStore, type NewAnalysis } from '../server/ai/store/analysis-store.ts';
import { loadCorpus } from '../server/ai/testing/corpus/load-corpus.ts';
import { silentLogger } from '../server/platform/logger.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const MiB = 1024 * 1024;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const fmt = (n: number, digits = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function distillationRows(): BenchRow[] {
  const corpus = loadCorpus();
  // A 4 MiB log: the corpus logs back to back, so every kind of section, error and filler occurs.
  let big = '';
  while (big.length < 4 * MiB) for (const c of corpus) big += c.raw;
  big = big.slice(0, 4 * MiB);
  const mb = Buffer.byteLength(big) / 1e6;
  distillLog(big); // warm-up (JIT, regex compilation)
  const distillMs = time(() => distillLog(big), 7);
  const stripMs = time(() => stripAnsi(big), 7);

  let raw = 0;
  let out = 0;
  let kept = 0;
  let total = 0;
  for (const c of corpus) {
    const d = distillLog(c.raw);
    raw += c.raw.length;
    out += d.text.length;
    for (const line of c.decisive) {
      total++;
      if (d.text.includes(line)) kept++;
    }
  }
  const recall = kept / total;
  const ratio = out / raw;
  return [
    {
      name: 'distil a 4 MiB job log (MB/s)',
      value: `${fmt(mb / (distillMs / 1000))} MB/s (${fmt(distillMs)} ms)`,
      baseline: `ANSI-strip regex pass: ${fmt(mb / (stripMs / 1000))} MB/s (${fmt(stripMs)} ms)`,
      target: '≤ 500 ms and ≥ 0.05× the strip pass',
      ok: distillMs <= 500 && distillMs <= stripMs * 20,
    },
    {
      name: `distilled size over the corpus (${corpus.length} logs)`,
      value: `${fmt(ratio * 100)}% (${fmt(out / 1000, 0)}k chars)`,
      baseline: `raw logs: ${fmt(raw / 1000, 0)}k chars`,
      target: '≤ 40% of the raw size',
      ok: ratio <= 0.4,
    },
    {
      name: 'decisive-line recall over the corpus',
      value: `${fmt(recall * 100)}% (${kept}/${total})`,
      baseline: '',
      target: '≥ 95%',
      ok: recall >= 0.95,
    },
  ];
}

function historyRows(): BenchRow[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ai-bench-'));
  const store = AnalysisStore.open(path.join(dir, 'analyses.db'), silentLogger);
  try {
    const analyses: NewAnalysis[] = [];
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 1; i <= 10_000; i++) {
      analyses.push({
        projectId: 1 + (i % 25),
        pipelineId: 1000 + Math.floor(i / 4),
        jobId: 100_000 + i,
        jobName: `job-${i % 40}`,
        stage: 'test',
        projectName: `project-${i % 25}`,
        analysis: `**Root cause:** analysis ${i} `.padEnd(1200, 'x'),
        provider: 'offline',
        model: '',
        isFallback: false,
        distilledLog: 'log '.repeat(1000),
        contextJson: null,
        timestamp: new Date(start + i * 60_000).toISOString(),
      });
    }
    store.bulkInsert(analyses);
    const runs = 200;
    store.history(1, 20);
    const firstMs = time(() => store.history(1, 20), runs);
    const deepMs = time(() => store.history(500, 20), runs);
    let id = 1;
    const pkMs = time(() => store.getById((id = (id % 10_000) + 1)), runs * 5);
    return [
      {
        name: 'GET /ai/history page 1 of 10,000 analyses',
        value: `${fmt(firstMs * 1000, 0)} µs`,
        baseline: `primary-key lookup: ${fmt(pkMs * 1000, 0)} µs`,
        target: '≤ 5 ms and ≤ 200× a key lookup',
        ok: firstMs <= 5 && firstMs <= pkMs * 200,
      },
      {
        name: 'GET /ai/history last page (500) of 10,000',
        value: `${fmt(deepMs * 1000, 0)} µs`,
        baseline: `primary-key lookup: ${fmt(pkMs * 1000, 0)} µs`,
        target: '≤ 10 ms (index scan, no sort)',
        ok: deepMs <= 10,
      },
    ];
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The AI suite. */
export const run: BenchSuite = async () => [...distillationRows(), ...historyRows()];
