/**
 * The one shape every command has (after `gh`'s options struct + run function): `parse(argv, env)`
 * turns flags into an options object — or a request for help — without side effects, so tests
 * check flag parsing apart from behaviour; `run(options, edges)` does the work and resolves to the
 * exit code. `runCommand` ties them together and is the only place a failure becomes a line on
 * stderr and an exit status (through cli/errors.ts).
 */
import { processIo, reporter, type CliIo, type Reporter } from './io.ts';

/** `parse` asking for the help text instead of a run, and the exit status to leave with. */
export interface HelpRequest {
  readonly help: true;
  readonly status: number;
}

/** Help was asked for (`--help`: status 0) or the command needs more (no action: status 1). */
export function helpRequest(status = 0): HelpRequest {
  return { help: true, status };
}

/** The edges a command runs with: the process streams and its diagnostics reporter. */
export interface CommandEdges {
  io: CliIo;
  report: Reporter;
}

/** One command: flags → options, options → exit code. */
export interface Command<Options> {
  /** How the command is invoked, for messages ("Run '… --help'"), e.g. 'pipeline-summary profile'. */
  readonly program: string;
  /** The prefix of failure lines on stderr; defaults to `program`. */
  readonly errorPrefix?: string;
  /** The --help text. */
  readonly help: string;
  /** Reads flags and environment into options; throws a usage CliError on bad input. */
  parse(argv: string[], env: NodeJS.ProcessEnv): Options | HelpRequest;
  /** Runs with parsed options; resolves to the exit code, throws coded errors. */
  run(options: Options, edges: CommandEdges): Promise<number>;
  /** True when these options hide informational diagnostics (--silent). */
  silent?(options: Options): boolean;
}

/** Parses, runs, and reports any failure as one line with its exit status. */
export async function runCommand<Options>(
  command: Command<Options>,
  argv: string[],
  io: CliIo = processIo(),
): Promise<number> {
  const prefix = command.errorPrefix ?? command.program;
  // Until the flags are parsed, honour a literal --silent so a usage error stays the only line.
  let report = reporter(io, prefix, argv.includes('--silent'));
  try {
    const options = command.parse(argv, io.env);
    if (isHelpRequest(options)) {
      io.stdout.write(command.help.endsWith('\n') ? command.help : `${command.help}\n`);
      return options.status;
    }
    report = reporter(io, prefix, command.silent?.(options) ?? false);
    return await command.run(options, { io, report });
  } catch (err) {
    return report.fail(err);
  }
}

function isHelpRequest(value: unknown): value is HelpRequest {
  return typeof value === 'object' && value !== null && (value as HelpRequest).help === true;
}

/** Subcommands by name, loaded lazily so a cached `get-token` never loads the service's modules. */
export type CommandTable = Record<
  string,
  { summary: string; load: () => Promise<Command<unknown>> }
>;
