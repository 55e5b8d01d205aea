// `serve` runs with V8's young generation capped. The service holds a large, stable set (a week of
// pipelines, packed jobs) that it builds at start and walks in bursts; while that set is built
// everything survives its first collections, so V8 grows the young generation to its maximum —
// 64 MiB a semi-space in Node 24 without pointer compression, two of them committed — and keeps
// it. At 2,000 projects with 90 days of history that is about 100 MiB of the peak (bench/
// ten-times.bench.ts: 595–635 MiB with V8's default, 471–505 with 16 MiB, V8's own default on
// 64-bit for years; the first health views about 2 s slower, the recompute no slower). V8 reads
// the size only when the heap is created, so the command line must carry it: `serve` started
// without it replaces itself (execve: same process id, stdio and environment) with the same
// command line plus the flag, before it has done anything else.

/** The young generation's semi-space `serve` runs with, in MiB. */
export const SERVE_SEMI_SPACE_MIB = 16;

const FLAG = '--max-semi-space-size';

/** What the restart reads and calls (the process's, in production). */
export interface ServeHeapDeps {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Node ≥ 22.15 on POSIX; absent on Windows and older Node. */
  execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
  /** Set under Electron (the packaged CLI runs on Electron's Node). */
  electron?: string;
}

const mentionsFlag = (arg: string) =>
  arg.startsWith(FLAG) || arg.startsWith('--max_semi_space_size');

/**
 * The command line `serve` restarts with, or null when it runs as it is: the size was given (on
 * Node's command line or in NODE_OPTIONS: the user's wins), the platform cannot replace a process
 * (Windows), or the CLI runs on Electron's Node (its launchers pass their own flags).
 */
export function serveCommandLine(deps: ServeHeapDeps): string[] | null {
  if (!deps.execve || deps.electron) return null;
  const nodeOptions = (deps.env.NODE_OPTIONS ?? '').split(/\s+/);
  if ([...deps.execArgv, ...nodeOptions].some(mentionsFlag)) return null;
  return [
    deps.execPath,
    ...deps.execArgv,
    `${FLAG}=${SERVE_SEMI_SPACE_MIB}`,
    ...deps.argv.slice(1),
  ];
}

/**
 * Replaces this process with `serve` under the capped young generation (see the file's comment);
 * returns when it runs as it is, or when the replacement failed (then nothing changed but the
 * memory it will take).
 */
export function restartServeWithHeapLimits(deps: ServeHeapDeps = processDeps()): void {
  const line = serveCommandLine(deps);
  if (!line) return;
  try {
    deps.execve!(line[0]!, line, deps.env);
  } catch {
    // E.g. the binary moved since start (an upgrade): run as is.
  }
}

function processDeps(): ServeHeapDeps {
  const execve = (process as { execve?: ServeHeapDeps['execve'] }).execve;
  return {
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    env: process.env,
    execve: execve?.bind(process),
    electron: process.versions.electron,
  };
}
