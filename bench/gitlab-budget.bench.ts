// What the GitLab client's machinery (host budget, retry loop, error mapping, JSON parsing) costs per
// request, against bare got on the same loopback server with the same concurrency.
import got from 'got';
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { ScriptedGitLabServer } from '../server/gitlab/testing/scripted-gitlab-server.ts';
import { wireJob } from '../server/gitlab/testing/wire-fixtures.ts';
import { median } from './measure.ts';
import type { BenchSuite } from './types.ts';

const REQUESTS = 1_500;
const ROUNDS = 5;
const CONCURRENCY = 6;
// A whole job as GitLab sends it: the client validates every answer (wire-schemas.ts).
const JOB = wireJob(1);

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return REQUESTS / ((performance.now() - started) / 1000);
}

async function pool(task: () => Promise<unknown>): Promise<void> {
  let left = REQUESTS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await task();
    }),
  );
}

/** GitLabClient.getJob requests/s vs bare got over loopback (budget sized not to throttle). */
export const run: BenchSuite = async () => {
  const server = await ScriptedGitLabServer.start();
  server.on(/\/jobs\/\d+$/, [{ json: JOB }]);
  const url = `${server.url}/api/v4/projects/1/jobs/1`;
  const client = new GitLabClient({
    baseUrl: server.url,
    token: 'bench-token',
    // Measure overhead, not the rate limit: a budget far above what loopback can reach.
    budget: new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: CONCURRENCY }),
  });
  try {
    // Warm both paths (JIT, keep-alive sockets) before measuring.
    await pool(() => got(url, { headers: { 'private-token': 'bench-token' } }).json());
    await pool(() => client.getJob(1, 1));
    // Rounds alternate which path goes first and the medians are compared: one round's figure
    // swung ±0.1× with the machine's load.
    const bares: number[] = [];
    const ourss: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measureBare = async () =>
        bares.push(
          await timed(() =>
            pool(() => got(url, { headers: { 'private-token': 'bench-token' } }).json()),
          ),
        );
      const measureOurs = async () =>
        ourss.push(await timed(() => pool(() => client.getJob(1, 1))));
      if (round % 2 === 0) {
        await measureBare();
        await measureOurs();
      } else {
        await measureOurs();
        await measureBare();
      }
    }
    const bare = median(bares);
    const ours = median(ourss);
    const ratio = ours / bare;
    return [
      {
        name: 'GitLabClient.getJob over loopback, 6 in flight',
        value: `${Math.round(ours).toLocaleString('en')} req/s (${ratio.toFixed(2)}×, median of ${ROUNDS} rounds)`,
        baseline: `bare got: ${Math.round(bare).toLocaleString('en')} req/s`,
        target: '≥ 0.8× bare got',
        ok: ratio >= 0.8,
      },
    ];
  } finally {
    await server.close();
  }
};
