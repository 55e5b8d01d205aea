// The keychain half of bench/token.bench.ts, run by it inside a private D-Bus session with a
// throwaway unlocked gnome-keyring (as scripts/test-all.sh runs the keychain tests): a cached
// get-token whose cache key lives in the Secret Service, against `node -e 0` in the same session.
// Prints {bare, cached, cachedSuite} medians (ms) and CPU ratios as JSON on stdout.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { TEST_CLIENTS } from '../cli/oauth/testing/test-provider.ts';
import { tempHome } from '../cli/oauth/testing/fixtures.ts';
import { ProcessTimer } from './process-timing.ts';

const [bin, suite, issuer, runs] = [
  process.env.BENCH_GET_TOKEN!,
  process.env.BENCH_PIPELINE_SUMMARY!,
  process.env.BENCH_ISSUER!,
  Number(process.env.BENCH_RUNS ?? 15),
];

function run(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(args[0]!)} ${args[1]}: ${stderr}`)),
    );
    child.stdin.end(input);
  });
}

const { home, cleanup } = await tempHome();
try {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    PIPELINE_SUMMARY_HOME: home,
    PIPELINE_SUMMARY_SECRET_STORE: 'keychain',
  };
  await run(
    [
      suite,
      'profile',
      'add',
      'default',
      '--issuer',
      issuer,
      '--client-id',
      TEST_CLIENTS.service.id,
      '--client-secret-stdin',
      '--scope',
      'api:read',
    ],
    env,
    TEST_CLIENTS.service.secret,
  );
  await run([bin], env); // fills the cache; its key goes to the Secret Service
  const timer = new ProcessTimer();
  // Warm the file cache and V8's compile cache of both binaries.
  timer.time(['-e', '0'], env, 'warm');
  timer.time([bin], env, 'warm');
  timer.time([suite, 'get-token'], env, 'warm');
  for (let i = 0; i < runs; i++) {
    timer.time(['-e', '0'], env, 'bare');
    timer.time([bin], env, 'cached');
    timer.time([suite, 'get-token'], env, 'cachedSuite');
  }
  const median = (label: string) => {
    const sorted = [...timer.wall.get(label)!].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  };
  process.stdout.write(
    JSON.stringify({
      bare: median('bare'),
      cached: median('cached'),
      cachedSuite: median('cachedSuite'),
      cpu: {
        cached: timer.cpuRatio('cached', 'bare'),
        cachedSuite: timer.cpuRatio('cachedSuite', 'bare'),
      },
    }) + '\n',
  );
} finally {
  await cleanup();
}
