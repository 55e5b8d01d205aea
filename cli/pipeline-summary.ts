#!/usr/bin/env node
// The `pipeline-summary` binary. `get-token` is called in loops by scripts, so a cached token is
// answered by cli/token/cached-token.ts alone — this file's bundle is that and nothing more
// (scripts/cli-bundles.mjs, bench/token.bench.ts); everything else loads the command table.
import { answerFromCache } from './token/cached-token.ts';

const argv = process.argv.slice(2);
const cached = argv[0] === 'get-token' ? answerFromCache(argv.slice(1), process.env) : undefined;
if (cached !== undefined) {
  process.getBuiltinModule('node:fs').writeSync(1, cached);
} else {
  const { main } = await import('./pipeline-summary-main.ts');
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(
        `pipeline-summary: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
