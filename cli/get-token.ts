#!/usr/bin/env node
// The `get-token` binary: the same command as `pipeline-summary get-token`, without the command
// table. Scripts call it in loops, so startup counts (bench/token.bench.ts): V8's compile cache
// (Node ≥ 22.1; off with NODE_DISABLE_COMPILE_CACHE=1) spares re-parsing the bundle on every run,
// and it must be on before the command's modules load, hence the dynamic import.
import module from 'node:module';

module.enableCompileCache?.();
const { runGetTokenAs } = await import('./commands/get-token.ts');
runGetTokenAs('get-token', process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`get-token: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
