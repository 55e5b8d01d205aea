#!/usr/bin/env node
// The `get-token` binary: the same command as `pipeline-summary get-token`, imported directly so a
// cached token costs one small module graph and no command-table lookup.
import { run } from './commands/get-token.ts';

run(process.argv.slice(2), 'get-token').then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`get-token: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
