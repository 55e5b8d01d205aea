import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
} from '../gitlab/wire.ts';
import { startSimulator, type GitLabSimulator } from './index.ts';
import { simAllPages, simGet, simJson } from './testing/http.ts';
import { plantFailure } from './testing/plant.ts';

const ACTIVE = new Set(['created', 'pending', 'running']);
const START = Date.parse('2026-11-18T15:00:00Z');

async function pipelineState(
  sim: GitLabSimulator,
  projectId: number,
  pipelineId: number,
): Promise<{ pipeline: GitLabPipeline; jobs: GitLabJob[] }> {
  const pipeline = await simJson<GitLabPipeline>(
    sim,
    `/projects/${projectId}/pipelines/${pipelineId}`,
  );
  const jobs = await simJson<GitLabJob[]>(
    sim,
    `/projects/${projectId}/pipelines/${pipelineId}/jobs?per_page=100`,
  );
  return { pipeline, jobs };
}

/** Stage-by-stage consistency: nothing runs before earlier stages are done. */
function expectConsistent(pipeline: GitLabPipeline, jobs: GitLabJob[]): void {
  const stages = [...new Set(jobs.map((j) => j.stage))];
  const stageOf = (j: GitLabJob): number => stages.indexOf(j.stage);
  const moving = jobs.filter((j) => j.status === 'pending' || j.status === 'running');
  if (moving.length > 0) {
    const current = Math.min(...moving.map(stageOf));
    expect(moving.every((j) => stageOf(j) === current)).toBe(true);
    for (const j of jobs) {
      if (stageOf(j) < current) expect(ACTIVE.has(j.status), `${j.name} ${j.status}`).toBe(false);
      if (stageOf(j) > current) expect(j.status).toBe('created');
    }
    expect(pipeline.status).toBe(
      moving.some((j) => j.status === 'running') ||
        jobs.some((j) => !ACTIVE.has(j.status) && j.status !== 'manual')
        ? 'running'
        : 'pending',
    );
  }
  for (const j of jobs) {
    expect(j.pipeline.status).toBe(pipeline.status);
    if (j.status === 'running') expect(j.started_at).not.toBeNull();
    if (j.status === 'created' || j.status === 'pending') expect(j.started_at).toBeNull();
    if (['success', 'failed'].includes(j.status)) expect(j.finished_at).not.toBeNull();
  }
  if (pipeline.status === 'failed') {
    const failed = jobs.filter((j) => j.status === 'failed' && !j.allow_failure);
    expect(failed.length).toBeGreaterThan(0);
    const last = Math.max(...failed.map(stageOf));
    for (const j of jobs) if (stageOf(j) > last) expect(j.status).toBe('skipped');
  }
  if (pipeline.status === 'success') {
    for (const j of jobs) {
      expect(j.status === 'success' || j.allow_failure, `${j.name} ${j.status}`).toBe(true);
    }
  }
  if (['success', 'failed', 'canceled'].includes(pipeline.status)) {
    expect(pipeline.finished_at).not.toBeNull();
    expect(Number.isInteger(pipeline.duration ?? 0)).toBe(true);
  }
}

describe('live simulation', () => {
  let sim: GitLabSimulator;
  const clock = new ManualClock(START);
  let projects: GitLabProject[];

  beforeAll(async () => {
    sim = await startSimulator({ seed: 13, live: false, clock });
    projects = await simJson<GitLabProject[]>(
      sim,
      '/groups/acme/projects?include_subgroups=true&archived=false&order_by=id&sort=asc',
    );
  });
  afterAll(async () => {
    await sim.close();
  });

  it('step() walks started pipelines to completion with consistent jobs and growing traces', async () => {
    const started = projects.slice(0, 6).map((p) => sim.startPipeline(p.id));
    const traces = new Map<number, number[]>();
    const finals = new Set<string>();
    for (const { projectId, pipelineId } of started) {
      const first = await pipelineState(sim, projectId, pipelineId);
      expect(first.pipeline.status).toBe('created');
      expect(first.pipeline.created_at).toBe(new Date(clock.now()).toISOString());
      expect(first.jobs.every((j) => j.status === 'created')).toBe(true);
    }
    const done = new Set<number>();
    let lastUpdated = new Map<number, string>();
    // Jobs run for their planned minutes (a timed-out one for the 1 h timeout): 30 s ticks.
    for (let step = 0; step < 160 && done.size < started.length; step++) {
      clock.advance(30_000);
      sim.step();
      const nowIso = new Date(clock.now()).toISOString();
      const updated = new Map<number, string>();
      for (const { projectId, pipelineId } of started) {
        if (done.has(pipelineId)) continue;
        const { pipeline, jobs } = await pipelineState(sim, projectId, pipelineId);
        expectConsistent(pipeline, jobs);
        updated.set(pipelineId, pipeline.updated_at);
        const before = lastUpdated.get(pipelineId);
        if (before !== undefined)
          expect([pipeline.updated_at === before, pipeline.updated_at === nowIso]).toContain(true);
        for (const job of jobs.filter((j) => j.status === 'running')) {
          const trace = (await simGet(sim, `/projects/${projectId}/jobs/${job.id}/trace`)).text;
          expect(trace).toContain('section_start:');
          traces.set(job.id, [...(traces.get(job.id) ?? []), trace.length]);
        }
        if (!['created', 'pending', 'running'].includes(pipeline.status)) {
          done.add(pipelineId);
          finals.add(pipeline.status);
          for (const job of jobs.filter((j) => j.status === 'success' || j.status === 'failed')) {
            const trace = (await simGet(sim, `/projects/${projectId}/jobs/${job.id}/trace`)).text;
            expect(trace).toContain(
              job.status === 'success' ? 'Job succeeded' : 'ERROR: Job failed',
            );
            const seen = traces.get(job.id);
            if (seen) expect(trace.length).toBeGreaterThan(Math.max(...seen));
          }
        }
      }
      lastUpdated = updated;
    }
    expect(done.size).toBe(started.length);
    expect([...finals].sort()).toEqual(['failed', 'success']);
    const grown = [...traces.values()].filter((lengths) => new Set(lengths).size > 1);
    expect(grown.length).toBeGreaterThan(0);
    for (const lengths of grown) expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  it('finishPipeline() fails or passes a pipeline on demand and bumps updated_at', async () => {
    const project = projects[1]!;
    const a = sim.startPipeline(project.id);
    const b = sim.startPipeline(project.id);
    clock.advance(3_000);
    sim.step();
    clock.advance(3_000);
    sim.step();
    clock.advance(5_000);
    sim.finishPipeline(a.projectId, a.pipelineId, 'failed');
    sim.finishPipeline(b.projectId, b.pipelineId, 'success');
    const now = new Date(clock.now()).toISOString();

    const failed = await pipelineState(sim, a.projectId, a.pipelineId);
    expect(failed.pipeline).toMatchObject({ status: 'failed', updated_at: now, finished_at: now });
    expectConsistent(failed.pipeline, failed.jobs);
    const culprit = failed.jobs.find((j) => j.status === 'failed' && !j.allow_failure)!;
    expect(culprit.failure_reason).toBeDefined();
    const log = (await simGet(sim, `/projects/${a.projectId}/jobs/${culprit.id}/trace`)).text;
    expect(log).toMatch(
      /ERROR: Job failed: (exit code \d+|execution took longer than 1h0m0s seconds)/,
    );

    const passed = await pipelineState(sim, b.projectId, b.pipelineId);
    expect(passed.pipeline).toMatchObject({ status: 'success', updated_at: now });
    expectConsistent(passed.pipeline, passed.jobs);

    // A poller asking for updated_after sees both.
    const changed = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${project.id}/pipelines?updated_after=${encodeURIComponent(now)}`,
    );
    expect(changed.map((p) => p.id).sort()).toEqual([a.pipelineId, b.pipelineId].sort());
    expect(() => sim.finishPipeline(project.id, 1, 'success')).toThrow(/no pipeline 1/);
    expect(() => sim.startPipeline(1)).toThrow(/no project 1/);
  });

  it('starts pipelines on its own over many steps and keeps updated_after exact', async () => {
    const before = new Date(clock.now() + 1).toISOString();
    for (let i = 0; i < 30; i++) {
      clock.advance(3_000);
      sim.step();
    }
    let changed = 0;
    let fresh = 0;
    for (const p of projects) {
      const list = await simJson<GitLabPipelineListItem[]>(
        sim,
        `/projects/${p.id}/pipelines?updated_after=${encodeURIComponent(before)}&per_page=100`,
      );
      changed += list.length;
      fresh += list.filter((x) => x.created_at >= before).length;
      for (const x of list) expect(x.updated_at >= before).toBe(true);
    }
    expect(fresh).toBeGreaterThan(0);
    expect(changed).toBeGreaterThanOrEqual(fresh);
  });
});

describe('a failure a test chooses', () => {
  it('finishPipeline() fails the job a test names, with the failure it names', async () => {
    const sim = await startSimulator({ seed: 13, live: false, projects: 6, days: 1 });
    onTestFinished(() => sim.close());
    const p = await plantFailure(sim, 'terraform-modules', 'apply-staging', 'terraform-error');
    const { pipeline, jobs } = await pipelineState(sim, p.projectId, p.pipelineId);
    expect(pipeline.status).toBe('failed');
    expectConsistent(pipeline, jobs);
    const failed = jobs.filter((j) => j.status === 'failed');
    expect(failed.map((j) => [j.name, j.failure_reason])).toEqual([
      ['apply-staging', 'script_failure'],
    ]);
    // Every job of an earlier stage passed: the apply is what stopped it.
    expect(jobs.find((j) => j.name === 'plan-staging')!.status).toBe('success');
    const log = (await simGet(sim, `/projects/${p.projectId}/jobs/${failed[0]!.id}/trace`)).text;
    expect(failed[0]!.id).toBe(p.jobId);
    expect(log).toContain('Unsupported attribute');
    expect(log).toMatch(/on modules\/[\w-]+\/main\.tf line \d+/);

    const other = sim.startPipeline(p.projectId);
    expect(() =>
      sim.finishPipeline(other.projectId, other.pipelineId, 'failed', { job: 'no-such-job' }),
    ).toThrow(/has no job no-such-job \(it has fmt, validate/);
  });
});

describe('determinism and scale', () => {
  it('gives the same data for the same seed and start time, and different data for another seed', async () => {
    const make = (seed: number): Promise<GitLabSimulator> =>
      startSimulator({ seed, live: false, clock: new ManualClock(START), projects: 5, days: 3 });
    const [a, b, c] = await Promise.all([make(5), make(5), make(6)]);
    try {
      const snapshot = async (sim: GitLabSimulator): Promise<string> => {
        const projects = await simJson<GitLabProject[]>(
          sim,
          '/groups/acme/projects?include_subgroups=true&order_by=id',
        );
        const out: unknown[] = [];
        for (const p of projects) {
          const { items } = await simAllPages<GitLabPipelineListItem>(
            sim,
            `/projects/${p.id}/pipelines?per_page=100`,
          );
          out.push(p.id, items);
          const failed = items.find((i) => i.status === 'failed');
          if (failed) {
            const jobs = await simJson<GitLabJob[]>(
              sim,
              `/projects/${p.id}/pipelines/${failed.id}/jobs`,
            );
            const culprit = jobs.find((j) => j.status === 'failed')!;
            out.push(jobs, (await simGet(sim, `/projects/${p.id}/jobs/${culprit.id}/trace`)).text);
          }
        }
        // Strip the per-instance port from URLs.
        return JSON.stringify(out).replaceAll(sim.url, 'SIM');
      };
      for (const sim of [a, b]) {
        sim.startPipeline();
        for (let i = 0; i < 5; i++) sim.step();
      }
      const [sa, sb, sc] = await Promise.all([snapshot(a), snapshot(b), snapshot(c)]);
      expect(sa.length).toBeGreaterThan(10_000);
      expect(sa).toBe(sb);
      expect(sc).not.toBe(sa);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('starts with 200 projects and lists them all', async () => {
    const sim = await startSimulator({ projects: 200, live: false, clock: new ManualClock(START) });
    try {
      const { items, pages } = await simAllPages<GitLabProject>(
        sim,
        '/groups/acme/projects?include_subgroups=true&archived=false&per_page=100',
      );
      expect(items).toHaveLength(200);
      expect(pages).toHaveLength(2);
      expect(new Set(items.map((p) => p.path_with_namespace)).size).toBe(200);
      expect(sim.counts().pipelines).toBeGreaterThan(200 * 14 * 3);
      const last = items[items.length - 1]!;
      const list = await simJson<GitLabPipelineListItem[]>(sim, `/projects/${last.id}/pipelines`);
      expect(list.length).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });

  it('nests the top group under its parents when groupPath has several segments', async () => {
    const sim = await startSimulator({
      groupPath: 'org/team',
      projects: 3,
      days: 1,
      live: false,
      clock: new ManualClock(START),
    });
    try {
      expect(sim.groupPath).toBe('org/team');
      const projects = await simJson<GitLabProject[]>(
        sim,
        '/groups/org%2Fteam/projects?include_subgroups=true&archived=false',
      );
      expect(projects).toHaveLength(3);
      expect(projects.every((p) => p.path_with_namespace.startsWith('org/team/'))).toBe(true);
      const siblings = await simJson<{ full_path: string }[]>(sim, '/groups/org/subgroups');
      expect(siblings.map((g) => g.full_path).sort()).toEqual([
        'org/globex',
        'org/initech',
        'org/team',
      ]);
    } finally {
      await sim.close();
    }
  });

  it('runs by itself in live mode', async () => {
    const sim = await startSimulator({ projects: 2, days: 1, tickMs: 20 });
    try {
      const projects = await simJson<GitLabProject[]>(
        sim,
        '/groups/acme/projects?include_subgroups=true&archived=false',
      );
      const since = new Date().toISOString();
      let changed = 0;
      for (let i = 0; i < 100 && changed === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        for (const p of projects) {
          changed += (
            await simJson<unknown[]>(sim, `/projects/${p.id}/pipelines?updated_after=${since}`)
          ).length;
        }
      }
      expect(changed).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});

describe('live durations (issue 30, item 7)', () => {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };

  it("live pipelines keep each job's seeded duration distribution (median within ±30 %)", async () => {
    const clock = new ManualClock(START);
    const sim = await startSimulator({ seed: 21, live: false, clock, projects: 4, days: 30 });
    try {
      const projects = await simJson<GitLabProject[]>(
        sim,
        '/groups/acme/projects?include_subgroups=true&archived=false&order_by=id&sort=asc',
      );
      const slow = sim.scenarios.slowdown;
      /** Durations (s) of a project's successful jobs by name, over `pipelines`. */
      const durations = async (projectId: number, pipelineIds: number[]) => {
        const byName = new Map<string, number[]>();
        for (const id of pipelineIds) {
          const jobs = await simJson<GitLabJob[]>(
            sim,
            `/projects/${projectId}/pipelines/${id}/jobs?per_page=100`,
          );
          for (const j of jobs) {
            // The slowdown scenario's job is twice as long from a known pipeline on, by design.
            if (j.status !== 'success' || j.duration === null) continue;
            if (slow?.projectId === projectId && slow.jobName === j.name) continue;
            byName.set(j.name, [...(byName.get(j.name) ?? []), j.duration]);
          }
        }
        return byName;
      };
      const seeded = new Map<number, Map<string, number[]>>();
      for (const p of projects) {
        const { items } = await simAllPages<GitLabPipelineListItem>(
          sim,
          `/projects/${p.id}/pipelines?status=success&per_page=100`,
        );
        seeded.set(
          p.id,
          await durations(
            p.id,
            items.map((x) => x.id),
          ),
        );
      }
      const live = projects.flatMap((p) =>
        Array.from({ length: 100 }, () => sim.startPipeline(p.id)),
      );
      // The demo's 3 s ticks, until every live pipeline has settled (a timed-out job takes 1 h).
      for (let step = 0; step < 1_500; step++) {
        clock.advance(3_000);
        sim.step();
      }
      for (const x of live) {
        const p = await simJson<GitLabPipeline>(
          sim,
          `/projects/${x.projectId}/pipelines/${x.pipelineId}`,
        );
        expect(ACTIVE.has(p.status), `pipeline ${x.pipelineId} ${p.status}`).toBe(false);
      }
      const compared: string[] = [];
      for (const p of projects) {
        const ids = live.filter((x) => x.projectId === p.id).map((x) => x.pipelineId);
        for (const [name, xs] of await durations(p.id, ids)) {
          const base = seeded.get(p.id)!.get(name);
          if (!base || xs.length < 40) continue;
          const ratio = median(xs) / median(base);
          compared.push(`${p.path}/${name} ${ratio.toFixed(2)}`);
          expect(
            ratio,
            `${p.path}/${name}: live ${median(xs)} s, seeded ${median(base)} s`,
          ).toBeGreaterThanOrEqual(0.7);
          expect(ratio, `${p.path}/${name}`).toBeLessThanOrEqual(1.3);
        }
      }
      expect(compared.length).toBeGreaterThanOrEqual(12);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
