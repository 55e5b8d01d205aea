/**
 * What every command shares on the terminal side: the process streams, one-line failure reports
 * with the exit status from the one table, diagnostics that `--silent` hides, and reading a secret
 * from a masked prompt or stdin. The token engine never imports this.
 */
import { nodeFs } from '../server/platform/builtins.ts';
import { CliError, cliCodeOf, exitStatusOf } from './errors.ts';

/** The process streams a command uses; tests may pass their own. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: NodeJS.ProcessEnv;
}

/**
 * The real process streams. stdout and stderr are written with fs.writeSync on POSIX and stdin is
 * created only when read: building process.stdout/stdin streams costs a cached get-token several
 * milliseconds (net, stream), more than the rest of its work.
 */
export function processIo(): CliIo {
  return {
    stdout: { write: (text: string) => writeFd(1, text, () => process.stdout) },
    stderr: { write: (text: string) => writeFd(2, text, () => process.stderr) },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

function writeFd(fd: number, text: string, stream: () => NodeJS.WriteStream): void {
  if (process.platform === 'win32') {
    stream().write(text);
    return;
  }
  let rest = Buffer.from(text, 'utf8');
  try {
    while (rest.length > 0) rest = rest.subarray(nodeFs().writeSync(fd, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return; // the reader went away (e.g. `| head`): nothing to tell
    if (code !== 'EAGAIN') throw err;
    // A non-blocking pipe is full: let the stream queue the rest.
    stream().write(rest);
  }
}

/** Diagnostics of one command run: `info` is hidden by --silent, `action` and `fail` never are. */
export interface Reporter {
  info(line: string): void;
  /** Something the user must do (open a URL, enter a code): shown even with --silent. */
  action(line: string): void;
  /** Prints the one-line failure report and returns the exit status. */
  fail(err: unknown): number;
  /** An engine `notify` edge routed to `info`/`action`. */
  notify: (line: string, kind?: 'action' | 'info') => void;
}

/** A reporter writing to stderr, lines prefixed with the program name. */
export function reporter(io: CliIo, program: string, silent = false): Reporter {
  const out = (line: string) => io.stderr.write(`${line}\n`);
  const r: Reporter = {
    info: (line) => {
      if (!silent) out(line);
    },
    action: out,
    fail: (err) => {
      out(`${program}: ${describeError(err)}`);
      return exitStatusOf(err);
    },
    notify: (line, kind) => (kind === 'action' ? r.action(line) : r.info(line)),
  };
  return r;
}

/** One line saying what failed; unexpected errors keep their message but never a stack. */
export function describeError(err: unknown): string {
  if (cliCodeOf(err) !== undefined) return (err as Error).message;
  const message = err instanceof Error ? err.message : String(err);
  return `unexpected error: ${message.split('\n')[0]}`;
}

/**
 * Reads a secret: a masked prompt when stdin is a terminal and `prompt` is given, else all of stdin
 * (one trailing newline dropped), so `pass show x | pipeline-summary token set` works. An empty
 * secret is a usage error.
 */
export async function readSecret(io: CliIo, prompt?: string): Promise<string> {
  const secret =
    io.stdin.isTTY && prompt !== undefined ? await maskedPrompt(io, prompt) : await readStdin(io);
  const value = secret.replace(/\r?\n$/, '');
  if (!value) throw new CliError('usage', 'no secret given (empty input)');
  return value;
}

/** All of standard input as UTF-8 text, as given (a secret, a token, a profile export). */
export async function readStdin(io: CliIo): Promise<string> {
  let text = '';
  io.stdin.setEncoding('utf8');
  for await (const chunk of io.stdin) text += chunk as string;
  return text;
}

function maskedPrompt(io: CliIo, prompt: string): Promise<string> {
  const stdin = io.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    io.stderr.write(prompt);
    stdin.setRawMode?.(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    const done = (err?: Error) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      io.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new CliError('general', 'cancelled'));
        if (ch === '\u007f' || ch === '\b') {
          if (value.length > 0) {
            value = value.slice(0, -1);
            io.stderr.write('\b \b');
          }
          continue;
        }
        value += ch;
        io.stderr.write('*');
      }
    };
    stdin.on('data', onData);
  });
}
