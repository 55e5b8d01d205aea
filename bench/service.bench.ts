// Service benchmarks (issue 2 §8): summary throughput vs a bare node:http server with the same bytes,
// SSE fan-out latency and memory per subscriber, and first-load / steady-state cost against the
// simulator at 200 projects with 50 ms latency. Every figure is compared within this run.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { PipelinePoller } from '../server/summary/poller.ts';
import { startSimulator } from '../server/simulator/index.ts';
import { systemClock } from '../server/platform/clock.ts';
import { SseHub } from '../server/events/sse-hub.ts';
import { startHarness } from '../server/testing/service-harness.ts';
import { LARGE_GROUP } from './large-group.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function child(args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', path.join(here, 'load-client.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function load(url: string, connections = 32, ms = 3000): Promise<number> {
  const proc = child(['load', url, String(connections), String(ms)]);
  let out = '';
  proc.stdout.on('data', (c) => (out += c));
  await new Promise((r) => proc.on('exit', r));
  const { requests } = JSON.parse(out) as { requests: number };
  return requests / (ms / 1000);
}

async function summaryThroughput(): Promise<BenchRow[]> {
  // The tests' harness (the production composition root on a simulator), with the service's own
  // polling cadence so the summary is measured while the poller runs as it does for users.
  const { service, close } = await startHarness({
    simulator: { projects: 12 },
    edges: { timing: undefined },
  });
  const url = `${service.url}/api/pipelines/summary`;
  const bytes = Buffer.from(await (await fetch(url)).text());
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': bytes.length,
    });
    res.end(bytes);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  await load(url, 8, 500); // warm-up
  const ours = await load(url);
  const baseline = await load(bareUrl);
  bare.close();
  await close();
  const ratio = ours / baseline;
  return [
    {
      name: `GET /api/pipelines/summary (${fmt(bytes.length / 1024)} KiB body)`,
      value: `${fmt(ours)} req/s (${fmt(ratio, 2)}×)`,
      baseline: `${fmt(baseline)} req/s bare node:http`,
      target: '≥ 0.6× bare',
      ok: ratio >= 0.6,
    },
  ];
}

async function sseFanOut(subscribers = 1000, rounds = 40): Promise<BenchRow[]> {
  const hub = new SseHub({ maxSubscribers: subscribers });
  const server = http.createServer((req, res) => {
    // Same path as the Koa route: hand the raw response to the hub.
    hub.subscribe({ respond: true, res, req, response: { get: () => '' } } as never);
  });
  server.maxConnections = subscribers + 10;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const payload = JSON.stringify({
    projects: Array.from({ length: 12 }, (_, i) => ({ project_id: i, pad: 'x'.repeat(400) })),
  });

  global.gc?.();
  const before = process.memoryUsage();
  const proc = child(['sse', url, String(subscribers)]);
  const lines = createInterface({ input: proc.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  await iterator.next(); // ready
  while (hub.size < subscribers) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  global.gc?.();
  const after = process.memoryUsage();
  const perSubscriber =
    (after.heapUsed + after.external - before.heapUsed - before.external) / subscribers;

  const latencies: number[] = [];
  for (let seq = 1; seq <= rounds; seq++) {
    const sentAt = performance.timeOrigin + performance.now();
    hub.publish(payload.replace('{', `{"seq":${seq},`));
    const { value } = await iterator.next();
    const { lastAt } = JSON.parse(value as string) as { lastAt: number };
    latencies.push(lastAt - sentAt);
    await new Promise((r) => setTimeout(r, 20));
  }
  proc.kill();
  hub.close();
  server.closeAllConnections();
  server.close();
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]!;
  const p50 = latencies[Math.floor(latencies.length / 2)]!;
  return [
    {
      name: `SSE fan-out to ${fmt(subscribers)} subscribers, change → last receipt`,
      value: `p99 ${fmt(p99, 1)} ms (p50 ${fmt(p50, 1)} ms)`,
      baseline: `${rounds} updates of ${fmt(payload.length / 1024, 1)} KiB`,
      target: 'p99 ≤ 100 ms',
      ok: p99 <= 100,
    },
    {
      name: 'SSE server memory per subscriber (heap + external)',
      value: `${fmt(perSubscriber / 1024, 1)} KB`,
      baseline: global.gc ? 'after GC, idle server' : 'no --expose-gc: noisy',
      target: '≤ 20 KB',
      ok: perSubscriber <= 20 * 1024,
    },
  ];
}

async function firstLoadAndSteadyState(): Promise<BenchRow[]> {
  const simulator = await startSimulator(LARGE_GROUP);
  // No rate budget here: within GitLab's 2000/min, filling ~4,000 durations takes over two minutes
  // by design; this measures the client's and poller's own speed.
  const budget = new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: 6 });
  const poller = new PipelinePoller({
    gitlab: new GitLabClient({
      baseUrl: simulator.url,
      token: simulator.token,
      logger: silentLogger,
      budget,
    }),
    clock: systemClock,
    logger: silentLogger,
    group: simulator.groupPath,
    since: '7d',
  });
  simulator.stats.reset();
  const started = performance.now();
  await poller.cycleOnce();
  const firstSummaryMs = performance.now() - started;
  const firstLoadRequests = simulator.stats.total;
  await poller.detailsSettled();
  const detailsMs = performance.now() - started;
  simulator.stats.reset();
  await poller.cycleOnce();
  await poller.detailsSettled();
  const steady = simulator.stats.total;
  const steadyDetails = (simulator.stats.byKind.pipeline ?? 0) + (simulator.stats.byKind.jobs ?? 0);
  await poller.stop();
  await simulator.close();
  return [
    {
      name: 'time to first summary, 200 projects, 50 ms upstream latency',
      value: `${fmt(firstSummaryMs / 1000, 2)} s (${fmt(firstLoadRequests)} requests)`,
      baseline: `all durations after ${fmt(detailsMs / 1000, 1)} s (no rate budget)`,
      target: '≤ 5 s',
      ok: firstSummaryMs <= 5000,
    },
    {
      name: 'GitLab requests per steady cycle with no changes (200 projects)',
      value: `${fmt(steady)} requests, ${fmt(steadyDetails)} detail fetches`,
      baseline: '200 projects',
      target: '≤ 1 per project, 0 details',
      ok: steady <= 200 && steadyDetails === 0,
    },
  ];
}

/** The service suite. */
export const run: BenchSuite = async () => [
  ...(await summaryThroughput()),
  ...(await sseFanOut()),
  ...(await firstLoadAndSteadyState()),
];
