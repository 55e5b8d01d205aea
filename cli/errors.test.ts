import { describe, expect, it } from 'vitest';
import { AppError } from '../server/platform/errors.ts';
import { SecretStoreError } from '../server/platform/secret-store.ts';
import { runCommand } from './command.ts';
import { serveCommand } from './commands/serve.ts';
import { CliError, EXIT_STATUS, exitStatusOf } from './errors.ts';
import type { CliIo } from './io.ts';
import { TokenError } from './oauth/errors.ts';

/** Streams that record what a command printed. */
function recordingIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: { write: (t: string) => (io.out += t) },
    stderr: { write: (t: string) => (io.err += t) },
    stdin: process.stdin,
    env: {},
  };
  return io;
}

describe('the one exit-status table', () => {
  it("keeps GET-TOKEN.md's 0–5 and gives usage errors 1, apart from 2 (profile not found)", () => {
    expect(EXIT_STATUS).toEqual({
      general: 1,
      usage: 1,
      profile_not_found: 2,
      auth_failed: 3,
      network: 4,
      timeout: 5,
      // explain's own (issue 28), after the table: a bad job reference, an unknown job, a job
      // that did not fail.
      bad_job_ref: 6,
      job_not_found: 7,
      job_not_failed: 8,
    });
  });

  it('maps every layer’s coded errors; unexplained errors are general', () => {
    expect(exitStatusOf(new TokenError('network', 'x'))).toBe(4);
    expect(exitStatusOf(new TokenError('profile_not_found', 'x'))).toBe(2);
    expect(exitStatusOf(new CliError('timeout', 'x'))).toBe(5);
    expect(exitStatusOf(new SecretStoreError('secret_store_unavailable', 'x'))).toBe(1);
    expect(exitStatusOf(new SecretStoreError('invalid_store_mode', 'x'))).toBe(1);
    expect(exitStatusOf(new AppError('unauthorized', 'x'))).toBe(1);
    expect(exitStatusOf(new Error('bug'))).toBe(1);
  });
});

describe('runCommand', () => {
  // The one deliberate change of issue 8 §4: serve's usage errors exited 2 ("profile not found"
  // in GET-TOKEN.md's table); every command now exits 1 on a usage error.
  it('serve: a usage error is one line on stderr and exit 1', async () => {
    const io = recordingIo();
    expect(await runCommand(serveCommand, ['--frobnicate'], io)).toBe(1);
    expect(io.err).toBe(
      "pipeline-summary: Unknown option '--frobnicate'. Run 'pipeline-summary serve --help' for the flags.\n",
    );
    expect(io.out).toBe('');
  });

  it('prints the help on stdout with the status parse asked for', async () => {
    const io = recordingIo();
    expect(await runCommand(serveCommand, ['--help'], io)).toBe(0);
    expect(io.out).toMatch(/^Usage: pipeline-summary serve/);
    expect(io.err).toBe('');
  });
});
