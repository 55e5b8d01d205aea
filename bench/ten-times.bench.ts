// Ten times larger (issue 24 §6): a group of 2,000 projects against the simulator with GitLab.com's
// 2,000 requests a minute and 50 ms latency — the first complete summary and a steady cycle through
// the real poller and history over HTTP — then 90 days of history (about a million pipelines and
// nine million jobs, written into history.db directly: the simulator would take hours to serve
// them at GitLab's rate) for the warm restart, the health recompute, the history file's size and
// the peak RSS of `serve` (its own process, the built CLI, reading that history).
// Slow (minutes) and memory-hungry: run it alone, `npx tsx bench/run.ts ten-times`.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitLabClient } from '../server/gitlab/client.ts';
import { computeGroupHealth } from '../server/group-health/group-health.ts';
import { openPollerWithHealth } from '../server/group-health/testing/poller-with-health.ts';
import { HistoryStore } from '../server/history/history-store.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { startSimulator } from '../server/simulator/index.ts';
import type { PipelinePoller } from '../server/summary/poller.ts';
import { median } from './measure.ts';
import { HISTORY_DAYS, TEN_TIMES_GROUP, writeLargeHistory } from './ten-times-group.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;
const HISTORY_KINDS = ['jobs', 'project-jobs', 'merge-request', 'commit'] as const;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const note = (text: string) => process.stderr.write(`  ten-times: ${text}\n`);
/**
 * A directory keeping the generated history.db between runs (`PS_BENCH_HISTORY_CACHE=/tmp/x`):
 * with a copy there the cold phase and the writing are skipped and only the history rows are
 * measured. Unset (the default), every run starts clean.
 */
const CACHE_DIR = process.env.PS_BENCH_HISTORY_CACHE;

/** Every finished pipeline in the summary has its duration and user: the summary is complete. */
function complete(p: PipelinePoller): boolean {
  return p.snapshot.projects.every((project) =>
    project.recent_pipelines.every(
      (r) => !['success', 'failed'].includes(r.status) || (r.duration !== null && r.user !== null),
    ),
  );
}

function fileSize(file: string): number {
  let bytes = 0;
  for (const suffix of ['', '-wal', '-shm'])
    try {
      bytes += statSync(file + suffix).size;
    } catch {
      // absent
    }
  return bytes;
}

/** A GET without fetch's 300 s header timeout: health over 90 days of 2,000 projects takes long. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * Runs `serve` as installed (the built CLI, rebuilt first when the sources changed) on the data
 * dir; resolves with its peak RSS once health answered. From source, tsx's compiler adds about
 * 20 MiB that users do not carry.
 */
async function servePeakRss(
  home: string,
  env: Record<string, string>,
): Promise<{ rssMiB: number; firstSummaryMs: number; healthMs: number }> {
  const root = path.join(here, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const cli = path.join(root, 'dist', 'cli', 'pipeline-summary.js');
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
    env: { ...process.env, ...env, PIPELINE_SUMMARY_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(match[0]);
        }
      }, 20);
      child.on('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`serve exited (${code}): ${output.slice(-2000)}`));
      });
    });
    let firstSummaryMs = 0;
    for (;;) {
      const res = await get(`${url}/api/pipelines/summary`).catch(() => null);
      if (res?.status === 200) {
        const body = JSON.parse(res.body) as { summary: { total_pipelines: number } };
        if (body.summary.total_pipelines > 0) {
          firstSummaryMs = performance.now() - started;
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const healthStarted = performance.now();
    for (const view of ['default-branches', 'flaky-jobs', 'regressions']) {
      const res = await get(`${url}/api/health/${view}`);
      if (res.status !== 200) throw new Error(`GET /api/health/${view}: ${res.status}`);
    }
    const healthMs = performance.now() - healthStarted;
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return { rssMiB: hwm ? Number(hwm[1]) / 1024 : NaN, firstSummaryMs, healthMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/** The ten-times suite. */
export const run: BenchSuite = async () => {
  const t = performance.now();
  const cached = CACHE_DIR ? path.join(CACHE_DIR, 'history.db') : null;
  let world = cached && existsSync(cached) ? cachedWorld(cached) : null;
  // On the cached file's port: its stored URLs then match the projects' (else every job's URL
  // is kept in memory, and the figures are not the service's).
  const sim = await startSimulator({ ...TEN_TIMES_GROUP, port: world?.port ?? 0 }).catch(
    (err: Error) => {
      note(`port ${world?.port} is taken (${err.message}): the cached history.db is not used`);
      world = null;
      return startSimulator(TEN_TIMES_GROUP);
    },
  );
  note(`simulator up in ${fmt((performance.now() - t) / 1000, 1)} s`);
  const home = mkdtempSync(path.join(os.tmpdir(), 'ps-bench-ten-times-'));
  const rows: BenchRow[] = [];
  try {
    // The client's own host budget: GitLab.com's 2,000/min for a token (with 10 % headroom).
    const client = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const file = path.join(home, 'history.db');
    if (world && !(await sameProjects(world, client, sim.groupPath))) {
      note('the cached history.db is of another simulator world (its projects differ): not used');
      world = null;
    }
    if (cached && world) {
      copyFileSync(cached, file);
      note(`history.db copied from ${cached}: cold phase skipped`);
    } else {
      rows.push(...(await coldPhase(client, sim, home)));
      if (cached) copyFileSync(file, cached);
    }
    rows.push(...(await historyRows(client, sim, home, file)));
    return rows;
  } finally {
    await sim.close();
    rmSync(home, { recursive: true, force: true });
  }
};

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** The simulator a cached history.db was written against: its port and its projects' paths. */
interface CachedWorld {
  port: number;
  paths: Map<number, string>;
}

function cachedWorld(file: string): CachedWorld | null {
  const store = HistoryStore.open(file, silentLogger);
  try {
    const projects = store.projects();
    if (projects.length === 0) return null;
    return {
      port: Number(new URL(projects[0]!.webUrl).port),
      paths: new Map(projects.map((p) => [p.id, new URL(p.webUrl).pathname])),
    };
  } finally {
    store.close();
  }
}

/** True when the simulator serves the projects the cached file holds, each at the same path. */
async function sameProjects(world: CachedWorld, client: GitLabClient, group: string) {
  const projects = await client.listGroupProjects(group);
  return (
    projects.length === world.paths.size &&
    projects.every((p) => world.paths.get(p.id) === new URL(p.web_url).pathname)
  );
}

/** Rows printed as they are measured too: a later stage running out of time or memory keeps them. */
function reportedRows(): BenchRow[] {
  const rows: BenchRow[] = [];
  const push = rows.push.bind(rows);
  rows.push = (...added: BenchRow[]) => {
    for (const row of added) note(`${row.name}: ${row.value} (${row.ok ? 'ok' : 'NOT MET'})`);
    return push(...added);
  };
  return rows;
}

/** The first summary and a steady cycle through the poller, then 90 days written beside them. */
async function coldPhase(client: GitLabClient, sim: Simulator, home: string): Promise<BenchRow[]> {
  const rows = reportedRows();
  let t: number;
  {
    const cold = openPollerWithHealth(client, sim.groupPath, home);
    sim.stats.reset();
    t = performance.now();
    // Complete (counts, durations, users: as the 200-project row) is watched while the cycle
    // runs; naming the failing job of every recent failure takes one jobs read each after that.
    let firstMs = NaN;
    let firstRequests = 0;
    const watch = setInterval(() => {
      if (
        Number.isNaN(firstMs) &&
        cold.poller.snapshot.projects.length > 0 &&
        complete(cold.poller)
      ) {
        firstMs = performance.now() - t;
        firstRequests = sim.stats.total;
      }
    }, 100);
    await cold.poller.cycleOnce();
    await cold.poller.detailsSettled();
    clearInterval(watch);
    const settledMs = performance.now() - t;
    const settledRequests = sim.stats.total;
    const { summary, projects } = cold.poller.snapshot;
    if (Number.isNaN(firstMs) && complete(cold.poller)) {
      firstMs = settledMs;
      firstRequests = settledRequests;
    }
    note(`first summary ${fmt(firstMs / 1000, 1)} s; settled ${fmt(settledMs / 1000, 1)} s`);
    rows.push({
      name: `first complete summary (counts, durations, users), ${fmt(projects.length)} projects, ${fmt(summary.total_pipelines)} pipelines in 7 days, 2,000/min budget, 50 ms latency`,
      value: `${fmt(firstMs / 1000, 1)} s, ${fmt(firstRequests)} requests`,
      baseline: `${fmt(summary.total_pipelines)} pipelines`,
      target: '≤ 60 s',
      ok: firstMs <= 60_000,
    });
    rows.push({
      name: `…and every recent failure's failing job named (one jobs read each, at the budget's pace)`,
      value: `${fmt(settledMs / 1000, 1)} s, ${fmt(settledRequests)} requests`,
      baseline: `${fmt(sim.stats.byKind.jobs)} jobs reads`,
      target: 'reported',
      ok: true,
    });
    sim.stats.reset();
    await cold.poller.cycleOnce();
    await cold.poller.detailsSettled();
    const history = HISTORY_KINDS.reduce((n, k) => n + sim.stats.byKind[k], 0);
    const steady = sim.stats.total - history;
    rows.push({
      name: `GitLab requests per steady cycle with nothing changed, ${fmt(projects.length)} projects (the poller's; history reads apart)`,
      value: `${fmt(steady)} requests`,
      baseline: `${fmt(history)} history reads meanwhile`,
      target: '≤ 1 per 10 projects',
      ok: steady * 10 <= projects.length,
    });
    await cold.close();

    // 90 days of history: written directly, beside the window the poller recorded.
    const file = path.join(home, 'history.db');
    const store = HistoryStore.open(file, silentLogger);
    const watched = store.projects();
    const now = Date.now();
    t = performance.now();
    const written = writeLargeHistory(
      store,
      watched,
      now - HISTORY_DAYS * DAY_MS + DAY_MS,
      now - 7 * DAY_MS,
      TEN_TIMES_GROUP.pipelinesPerDay!,
    );
    const counts = store.counts();
    store.close();
    note(
      `history written in ${fmt((performance.now() - t) / 1000, 0)} s: ${fmt(counts.pipelines)} pipelines, ${fmt(counts.jobs)} jobs (${fmt(written.jobs)} synthetic)`,
    );
  }
  return rows;
}

/** history.db's size, the warm restart, the health recompute and serve's peak RSS. */
async function historyRows(
  client: GitLabClient,
  sim: Simulator,
  home: string,
  file: string,
): Promise<BenchRow[]> {
  const rows = reportedRows();
  let t: number;
  {
    const store = HistoryStore.open(file, silentLogger);
    const watched = store.projects();
    const counts = store.counts();
    store.close();
    const bytes = fileSize(file);
    rows.push({
      name: `history.db, ${fmt(watched.length)} projects × ${HISTORY_DAYS} days (${fmt(counts.pipelines)} pipelines, ${fmt(counts.jobs)} jobs)`,
      value: `${fmt(bytes / MIB)} MiB`,
      baseline: `${fmt(bytes / counts.jobs, 0)} bytes a job`,
      target: 'reported',
      ok: true,
    });

    // Warm restart in this process: the first summary from disk, then health over all of it.
    t = performance.now();
    const warm = openPollerWithHealth(client, sim.groupPath, home);
    const warmMs = performance.now() - t;
    const served = warm.poller.snapshot.summary.total_pipelines;
    rows.push({
      name: `warm restart, ${fmt(watched.length)} projects, ${HISTORY_DAYS} days on disk: first summary after start`,
      value: `${fmt(warmMs)} ms (${fmt(served)} pipelines)`,
      baseline: `of ${fmt(counts.pipelines)} stored`,
      target: '≤ 2 s',
      ok: warmMs <= 2_000 && served > 0,
    });
    t = performance.now();
    const health = warm.group.health;
    await health.defaultBranches();
    note(`whole history read and health computed in ${fmt((performance.now() - t) / 1000, 1)} s`);
    const input = health.health().index.input;
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const before = process.cpuUsage();
      computeGroupHealth(input);
      const used = process.cpuUsage(before);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    const recomputeMs = median(cpu);
    rows.push({
      name: `health recompute, ${fmt(input.snapshot.projects.length)} projects × ${HISTORY_DAYS} days (${fmt(input.snapshot.pipelines.length)} pipelines, ${fmt([...input.snapshot.jobs.values()].reduce((n, l) => n + l.length, 0))} jobs in memory)`,
      value: `${fmt(recomputeMs)} ms CPU (${fmt(median(wall))} ms wall)`,
      baseline: '',
      target: '≤ 1,000 ms',
      ok: recomputeMs <= 1_000,
    });
    await warm.close();

    const serve = await servePeakRss(home, {
      GITLAB_URL: sim.url,
      GITLAB_TOKEN: sim.token,
      GITLAB_GROUP: sim.groupPath,
    });
    rows.push({
      name: `peak RSS of serve (the built CLI): ${fmt(watched.length)} projects, ${HISTORY_DAYS} days of history, after the health views (first summary ${fmt(serve.firstSummaryMs)} ms after spawn, health ${fmt(serve.healthMs / 1000, 1)} s)`,
      value: `${fmt(serve.rssMiB)} MiB`,
      baseline: '',
      target: '≤ 600 MiB',
      ok: serve.rssMiB <= 600,
    });
  }
  return rows;
}
