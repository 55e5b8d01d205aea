/** A subcommand: receives the arguments after its name and resolves to the process exit code. */
export type Command = (argv: string[]) => Promise<number>;

/** Subcommands by name, loaded lazily so a cached `get-token` never loads the service's modules. */
export type CommandTable = Record<
  string,
  { summary: string; load: () => Promise<{ run: Command }> }
>;

/** Writes one diagnostic line to stderr. */
export function printError(message: string): void {
  process.stderr.write(`pipeline-summary: ${message}\n`);
}
