#!/usr/bin/env node
// The `get-token` binary: the same command as `pipeline-summary get-token`, without the command
// table. Scripts call it in loops, so startup counts (bench/token.bench.ts): V8's compile cache
// (Node ≥ 22.1; off with NODE_DISABLE_COMPILE_CACHE=1) spares re-parsing the bundle on every run,
// and it must be on before the command's modules load, hence the dynamic imports. A cache hit is
// answered by cached-token.ts alone; everything else runs the full command.
import module from 'node:module';

module.enableCompileCache?.();
const argv = process.argv.slice(2);
const { answerFromCache } = await import('./token/cached-token.ts');
const cached = answerFromCache(argv, process.env);
if (cached !== undefined) {
  process.getBuiltinModule('node:fs').writeSync(1, cached);
} else {
  const { runGetTokenAs } = await import('./commands/get-token.ts');
  runGetTokenAs('get-token', argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`get-token: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
