#!/usr/bin/env node
// The `pipeline-summary` binary. `get-token` is called in loops by scripts, so a cached token is
// answered by cli/oauth/cached-token.ts alone — this file's bundle is that and nothing more
// (scripts/cli-bundles.mjs, bench/token.bench.ts); everything else loads the command table.
import { answerFromCache, printCachedAnswer } from './oauth/cached-token.ts';
import { restartServeWithHeapLimits } from './serve-heap.ts';

const argv = process.argv.slice(2);
// Before anything else runs: `serve` may replace this process with one whose heap suits it.
if (argv[0] === 'serve') restartServeWithHeapLimits();
const cached =
  argv[0] === 'get-token'
    ? answerFromCache(argv.slice(1), process.env)
    : Promise.resolve(undefined);
void cached.then((answer) => {
  if (answer !== undefined) {
    printCachedAnswer(answer);
    return;
  }
  // `pipeline-summary summary --json | head -1`: the reader has gone, so there is nobody left to
  // tell. Exit quietly instead of dying on an unhandled EPIPE with a stack trace (as `cat` or `git` do).
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
  // No top-level await: the entry is CommonJS (scripts/cli-bundles.mjs), which starts faster.
  import('./pipeline-summary-main.ts')
    .then(({ main }) => main(argv))
    .then(
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
});
