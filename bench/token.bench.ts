// get-token speed: a cached token against bare `node -e 0` in the same run (the CLI's own cost on
// top of Node's startup), for both binaries, and a fresh client-credentials token from a local
// OpenID provider with and without the discovery metadata cached.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addProfile, tempHome } from '../cli/oauth/testing/fixtures.ts';
import { startTestProvider, TEST_CLIENTS } from '../cli/oauth/testing/test-provider.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 15;

/** CPU time (user + system, ms) of the children this process has waited for, from /proc. */
function childrenCpuMs(): number | undefined {
  try {
    // Fields 16 and 17 after the command name: cutime, cstime, in clock ticks (100 Hz on Linux).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** CPU time per case, summed over runs: per run it has 10 ms steps, the mean over 15 does not. */
const cpuTotals = new Map<string, number>();

function timeSpawn(args: string[], env: NodeJS.ProcessEnv, label = args.join(' ')): number {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (cpuBefore !== undefined && cpuAfter !== undefined) {
    cpuTotals.set(label, (cpuTotals.get(label) ?? 0) + cpuAfter - cpuBefore);
  }
  if (child.status !== 0) {
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr.toString().trim()}`);
  }
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The token suite. */
export const run: BenchSuite = async () => {
  const bin = path.join(root, 'dist/cli/get-token.js');
  const suite = path.join(root, 'dist/cli/pipeline-summary.js');
  if (!existsSync(bin)) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'cli'], {
      stdio: 'inherit',
    });
  }
  const provider = await startTestProvider();
  const { home, cleanup } = await tempHome();
  try {
    await addProfile(
      home,
      {
        name: 'default',
        issuer: provider.issuer,
        clientId: TEST_CLIENTS.service.id,
        scopes: ['api:read'],
      },
      TEST_CLIENTS.service.secret,
    );
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PIPELINE_SUMMARY_HOME: home,
      PIPELINE_SUMMARY_SECRET_STORE: 'file',
    };
    // The provider runs in this process, so spawn the CLI asynchronously-safe: spawnSync would block
    // the provider. Fill the cache through one async run first.
    await spawnAsync([bin], env);
    // Warm the file cache and V8's compile cache of both binaries.
    timeSpawn(['-e', '0'], env);
    timeSpawn([bin], env);
    timeSpawn([suite, 'get-token'], env);
    const bare: number[] = [];
    const cached: number[] = [];
    const cachedSuite: number[] = [];
    // Interleaved, so a busy moment of the machine weighs on all three alike.
    for (let i = 0; i < RUNS; i++) {
      bare.push(timeSpawn(['-e', '0'], env, 'bare'));
      cached.push(timeSpawn([bin], env, 'get-token'));
      cachedSuite.push(timeSpawn([suite, 'get-token'], env, 'pipeline-summary get-token'));
    }
    const discoveryCache = path.join(home, 'discovery-cache.json');
    const fresh: number[] = [];
    const freshNoMetadata: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      fresh.push(await spawnAsync([bin, '--no-cache'], env));
      rmSync(discoveryCache, { force: true });
      freshNoMetadata.push(await spawnAsync([bin, '--no-cache'], env));
    }

    const bareMs = median(bare);
    // CPU time says the same on a busy machine, where wall time also measures the neighbours.
    const cpuRatio = (label: string) => {
      const bareCpu = cpuTotals.get('bare');
      const cpu = cpuTotals.get(label);
      return bareCpu && cpu !== undefined ? `; CPU ${(cpu / bareCpu).toFixed(2)}×` : '';
    };
    const cachedRow = (name: string, ms: number): BenchRow => ({
      name: `${name}, cached token (median of ${RUNS} processes)`,
      value: `${ms.toFixed(1)} ms (${(ms / bareMs).toFixed(2)}×${cpuRatio(name)})`,
      baseline: `node -e 0: ${bareMs.toFixed(1)} ms`,
      target: '≤ 1.25× node -e 0',
      ok: ms / bareMs <= 1.25,
    });
    const freshMs = median(fresh);
    const noMetadataMs = median(freshNoMetadata);
    const rows: BenchRow[] = [
      cachedRow('get-token', median(cached)),
      cachedRow('pipeline-summary get-token', median(cachedSuite)),
      {
        name: `get-token --no-cache, client-credentials (median of ${RUNS})`,
        value: `${freshMs.toFixed(1)} ms`,
        baseline: `node -e 0: ${bareMs.toFixed(1)} ms`,
        target: '≤ 500 ms (GET-TOKEN.md: "about 500 ms")',
        ok: freshMs <= 500,
      },
      {
        name: `fresh client-credentials token, discovery metadata cached vs. none (median of ${RUNS})`,
        value: `${freshMs.toFixed(1)} ms vs. ${noMetadataMs.toFixed(1)} ms`,
        baseline: `no metadata cached: ${noMetadataMs.toFixed(1)} ms`,
        target: 'cached ≤ none',
        ok: freshMs <= noMetadataMs,
      },
    ];
    return rows;
  } finally {
    await cleanup();
    await provider.close();
  }
};

/** Spawns without blocking this process's event loop (the provider lives here). */
function spawnAsync(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    import('node:child_process').then(({ spawn }) => {
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    }, reject);
  });
}
