// AI analysis benchmarks: log distillation speed, size and recall over the corpus, and history
// page latency with 10,000 stored analyses. Baselines are measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distillLog, stripAnsi } from '../server/ai/distill/log-distiller.ts';
import { AnalysisStore, type NewAnalysis } from '../server/ai/store/analysis-store.ts';
import { loadCorpus } from '../server/ai/testing/corpus/load-corpus.ts';
import { evaluateCorpus, excerptHas } from '../server/ai/testing/real-corpus-eval.ts';
import {
  loadRealLogs,
  REAL_LOGS_MISSING,
  realLogsPresent,
  type RealLog,
} from '../server/ai/testing/real-logs/index.ts';
import { locationShare, unsafeAnswers } from '../server/ai/testing/answer-audit.ts';
import { ManualClock } from '../server/platform/clock.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { FAILURES, TEMPLATES } from '../server/simulator/ci-templates.ts';
import { Dataset } from '../server/simulator/dataset.ts';
import { renderTrace } from '../server/simulator/logs/trace.ts';
import { median } from './measure.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const MiB = 1024 * 1024;

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
  stripAnsi(big);
  // Alternating rounds: the two timings see the same machine state (GC, CPU clock), so their ratio
  // does not swing with what ran before; one pass of each after the other gave 0.037–0.06×.
  const distillSamples: number[] = [];
  const stripSamples: number[] = [];
  for (let round = 0; round < 9; round++) {
    distillSamples.push(time(() => distillLog(big), 1));
    stripSamples.push(time(() => stripAnsi(big), 3));
  }
  const distillMs = median(distillSamples);
  const stripMs = median(stripSamples);

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

const pct = (a: number, b: number) => `${fmt((100 * a) / Math.max(1, b))}%`;

/** Recall of a plain "last 24,000 characters" tail: the baseline the distiller has to beat. */
function tailRecall(logs: RealLog[]): { kept: number; total: number } {
  let kept = 0;
  let total = 0;
  for (const l of logs) {
    const tail = stripAnsi(l.text).slice(-24_000);
    for (const d of l.decisive) {
      total++;
      if (excerptHas(tail, d)) kept++;
    }
  }
  return { kept, total };
}

// Real failed CI logs from public projects (../shared/ci-logs, see real-logs/index.ts): rules were
// developed on the dev split only; the held-out third is reported as measured.
// The first collection round of this release (see realCorpusRows).
const FIRST_ROUND_OF_THIS_RELEASE = 20;
function realCorpusRows(): BenchRow[] {
  if (!realLogsPresent) {
    process.stderr.write(`${REAL_LOGS_MISSING}\n`);
    return [];
  }
  const rows: BenchRow[] = [];
  for (const split of ['dev', 'holdout'] as const) {
    const logs = loadRealLogs(split);
    const f = evaluateCorpus(logs);
    const tail = tailRecall(logs);
    const label = split === 'dev' ? 'development' : 'held-out';
    rows.push(
      {
        name: `real logs, ${label} (${f.logs}): decisive-line recall`,
        value: `${pct(f.kept, f.decisive)} (${f.kept}/${f.decisive})`,
        baseline: `last 24k chars: ${pct(tail.kept, tail.total)}`,
        target: '≥ 97%',
        ok: f.kept / f.decisive >= 0.97,
      },
      {
        name: `real logs, ${label}: distilled size`,
        value: `${pct(f.distilledChars, f.rawChars)} (${fmt(f.distilledChars / 1000, 0)}k chars)`,
        baseline: `raw logs: ${fmt(f.rawChars / 1000, 0)}k chars`,
        target: '≤ 24k chars a log',
        ok: f.distilledChars <= 24_000 * f.logs,
      },
      // Issue 25 retired the held-out 75 % as a gate: more rules moved about one fresh log a round,
      // so the analyser is judged by answers that are right, grounded and safe; it stays reported.
      {
        name: `real logs, ${label}: offline analyser category right`,
        value: `${pct(f.categoryRight, f.logs)} (${f.categoryRight}/${f.logs})`,
        baseline: '',
        target: split === 'dev' ? '≥ 75%' : 'reported (not a gate)',
        ok: split === 'holdout' || f.categoryRight / f.logs >= 0.75,
      },
      {
        name: `real logs, ${label}: offline analyser names the root cause`,
        value: `${pct(f.rootCauseNamed, f.logs)} (${f.rootCauseNamed}/${f.logs})`,
        baseline: '',
        target: '≥ 70% (a decisive line in the first 3 quoted)',
        ok: f.rootCauseNamed / f.logs >= 0.7,
      },
    );
  }
  // This release's collection rounds: their held-out logs were never looked at, and each round was
  // first measured as a whole on arrival (docs/ai-analysis.md): the least tuned figure there is.
  const all = loadRealLogs();
  const fresh = evaluateCorpus(
    all.filter((l) => l.split === 'holdout' && (l.batch ?? 1) >= FIRST_ROUND_OF_THIS_RELEASE),
  );
  const rounds = [...new Set(all.map((l) => l.batch ?? 1))].sort((a, b) => a - b);
  rows.push({
    name: `real logs, held-out of rounds ${FIRST_ROUND_OF_THIS_RELEASE}–${rounds.at(-1)} (${fresh.logs}): category / root cause / recall`,
    value: `${pct(fresh.categoryRight, fresh.logs)} / ${pct(fresh.rootCauseNamed, fresh.logs)} / ${pct(fresh.kept, fresh.decisive)}`,
    baseline: '',
    target: 'reported',
    ok: true,
  });
  rows.push(newestRoundRow(all));
  // "What changed": the same failed logs distilled against the last green run of the same job.
  const pairs = loadRealLogs().filter((l) => l.greenText !== undefined);
  const plain = evaluateCorpus(pairs);
  const diffed = evaluateCorpus(pairs, (l) => distillLog(l.text, { baseline: l.greenText }));
  rows.push({
    name: `"what changed" vs the green run (${pairs.length} failed/green pairs): prompt size`,
    value: `${fmt(diffed.distilledChars / 1000, 0)}k chars, recall ${pct(diffed.kept, diffed.decisive)}`,
    baseline: `without the green run: ${fmt(plain.distilledChars / 1000, 0)}k chars, recall ${pct(plain.kept, plain.decisive)}`,
    target: 'smaller at equal recall',
    ok: diffed.distilledChars < plain.distilledChars && diffed.kept >= plain.kept,
  });
  return rows;
}

// Rounds whose development logs rules were written from after they arrived (the commit that did),
// so a figure measured now is not an on-arrival one. A round not listed is untouched: its figures
// are what it scored on arrival. Round 23 arrived in 3d35093, scoring 2 of 13 categories and 8 of
// 13 root causes, before 6fd0856 wrote rules from its development logs.
const TUNED_AFTER_ARRIVAL: Readonly<Record<number, string>> = {
  23: 'rules written from its development logs after arrival (6fd0856; on arrival 2/13 categories, 8/13 root causes)',
};

/**
 * The newest collection round (the highest `batch` in index.json): category, root cause, and how
 * many of its answers name the location when the log has one, said to be on-arrival figures only
 * when no rule was written from the round.
 */
function newestRoundRow(all: RealLog[]): BenchRow {
  const round = Math.max(...all.map((l) => l.batch ?? 1));
  const logs = all.filter((l) => (l.batch ?? 1) === round);
  const f = evaluateCorpus(logs);
  const where = locationShare(logs);
  const tuned = TUNED_AFTER_ARRIVAL[round];
  return {
    name: `real logs, newest round ${round} (${logs.length}${tuned ? `; ${tuned}` : ', on arrival'}): category / root cause / names the location`,
    value: `${pct(f.categoryRight, f.logs)} / ${pct(f.rootCauseNamed, f.logs)} / ${where.withLocation === 0 ? 'no log has one' : `${pct(where.quoted, where.withLocation)} (${where.quoted}/${where.withLocation})`}`,
    baseline: '',
    target: 'reported',
    ok: true,
  };
}

/** One failed-job log per simulator job template and failure kind its tool can have. */
function simulatorFailedLogs(): { id: string; text: string }[] {
  const clock = new ManualClock(Date.parse('2026-11-18T15:00:00Z'));
  const data = new Dataset(
    { seed: 9, projects: 12, pipelinesPerDay: 2, days: 2, groupPath: 'acme', now: clock.now() },
    clock,
  );
  const project = data.projects[0]!;
  const pipeline = project.pipelines.find((p) => p.jobCount > 0)!;
  const base = data.jobsOf(pipeline)[0]!;
  return Object.values(TEMPLATES)
    .flat()
    .flatMap((template) =>
      FAILURES[template.tool].map(([kind]) => ({
        id: `${template.name}/${kind}`,
        text: renderTrace({
          seed: 9,
          project,
          pipeline,
          job: {
            ...base,
            template,
            name: template.name,
            stage: template.stage,
            startedAt: pipeline.createdAt + 10_000,
            finishedAt: pipeline.createdAt + 190_000,
            status: 'failed',
            plannedStatus: 'failed',
            failure: kind,
          },
        }),
      })),
    );
}

// "Reproduce it locally" and every other proposed command, over the corpus and the demo's jobs.
function safetyRows(): BenchRow[] {
  const sim = simulatorFailedLogs();
  const simUnsafe = unsafeAnswers(sim).length;
  if (!realLogsPresent) {
    return [
      {
        name: `unsafe "reproduce" commands, simulator's failed jobs (${sim.length})`,
        value: `${simUnsafe}`,
        baseline: '',
        target: '0',
        ok: simUnsafe === 0,
      },
    ];
  }
  const logs = loadRealLogs();
  const unsafe = unsafeAnswers(logs).length;
  const where = (split: 'dev' | 'holdout') => {
    const s = locationShare(logs.filter((l) => l.split === split));
    return { ...s, text: `${pct(s.quoted, s.withLocation)} (${s.quoted}/${s.withLocation})` };
  };
  const dev = where('dev');
  const holdout = where('holdout');
  const quoted = dev.quoted + holdout.quoted;
  const withLocation = dev.withLocation + holdout.withLocation;
  return [
    {
      name: `answers that quote the location, real logs that have one (${withLocation})`,
      value: `${pct(quoted, withLocation)} (${quoted}/${withLocation})`,
      baseline: `development ${dev.text}, held-out ${holdout.text}`,
      target: '≥ 90%',
      ok: quoted / withLocation >= 0.9,
    },
    {
      name: `unsafe "reproduce" commands: real logs (${logs.length}) / simulator's failed jobs (${sim.length})`,
      value: `${unsafe} / ${simUnsafe}`,
      baseline: '4 answers a log: analysis with and without job context, reproduce, fix',
      target: '0 on both',
      ok: unsafe === 0 && simUnsafe === 0,
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
export const run: BenchSuite = async () => [
  ...distillationRows(),
  ...realCorpusRows(),
  ...safetyRows(),
  ...historyRows(),
];
