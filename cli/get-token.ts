#!/usr/bin/env node
// The `get-token` binary: the same command as `pipeline-summary get-token`, without the command
// table. Scripts call it in loops, so a cached token is answered by cli/oauth/cached-token.ts
// alone — this file's bundle is that and nothing more (scripts/cli-bundles.mjs,
// bench/token.bench.ts). Anything else loads the full command, with V8's compile cache on
// (Node ≥ 22.1; off with NODE_DISABLE_COMPILE_CACHE=1) before its modules load.
import { answerFromCache, printCachedAnswer } from './oauth/cached-token.ts';

const argv = process.argv.slice(2);
// No top-level await: the entry is CommonJS (scripts/cli-bundles.mjs), which starts faster.
void answerFromCache(argv, process.env).then((cached) => {
  if (cached !== undefined) {
    printCachedAnswer(cached);
    return;
  }
  process.getBuiltinModule('node:module').enableCompileCache?.();
  import('./commands/get-token.ts')
    .then(({ runGetTokenAs }) => runGetTokenAs('get-token', argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        process.stderr.write(`get-token: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
});
