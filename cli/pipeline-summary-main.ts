// The `pipeline-summary` command table and dispatcher, loaded by cli/pipeline-summary.ts once a
// cached token could not answer. V8's compile cache (Node ≥ 22.1) spares re-parsing the
// subcommands' bundles on every run; it is on before any of them loads.
import module from 'node:module';
import type { CommandTable } from './command.ts';

module.enableCompileCache?.();

/** Every `pipeline-summary` subcommand. Each module is imported only when its command runs. */
const COMMANDS: CommandTable = {
  serve: {
    summary: 'run the Pipeline Summary Service (HTTP API + dashboard)',
    load: async () => (await import('./commands/serve.ts')).serveCommand,
  },
  summary: {
    summary: "print the group's pipeline summary as a table (--watch, --json)",
    load: async () => (await import('./commands/summary.ts')).summaryCommand,
  },
  explain: {
    summary: 'explain why a GitLab job failed: failing step, decisive lines, analysis',
    load: async () => (await import('./commands/explain.ts')).explainCommand,
  },
  mcp: {
    summary: 'an MCP server on stdio for coding agents (Claude Code, Cursor, VS Code)',
    load: async () => (await import('./commands/mcp.ts')).mcpCommand,
  },
  'get-token': {
    summary: 'print an OAuth 2.0 access token for a profile',
    load: async () =>
      (await import('./commands/get-token.ts')).getTokenCommand('pipeline-summary get-token'),
  },
  refresh: {
    summary: "refresh a profile's cached token now",
    load: async () => (await import('./commands/refresh.ts')).refreshCommand,
  },
  inspect: {
    summary: "decode a JWT (a profile's cached token or one given) and show its times",
    load: async () => (await import('./commands/inspect.ts')).inspectCommand,
  },
  profile: {
    summary: 'add, list, show, remove, export or import get-token profiles',
    load: async () => (await import('./commands/profile.ts')).profileCommand,
  },
  token: {
    summary: 'store or clear the GitLab token in the OS keychain',
    load: async () => (await import('./commands/gitlab-token.ts')).tokenCommand,
  },
  doctor: {
    summary:
      'check a profile, the identity provider, the clock, secret store, cache and GitLab token',
    load: async () =>
      (await import('./commands/doctor.ts')).doctorCommand('pipeline-summary doctor'),
  },
};

/** The subcommands' names, in the order `--help` lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`,
  );
  return [
    'Usage: pipeline-summary <command> [flags]',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'pipeline-summary <command> --help' for a command's flags.",
  ].join('\n');
}

/** Dispatches `argv` (without node and script) to a subcommand and resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const [{ runCommand }, { CliError }, { processIo, reporter }] = await Promise.all([
    import('./command.ts'),
    import('./errors.ts'),
    import('./io.ts'),
  ]);
  const io = processIo();
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { versionInfo } = await import('../server/version.ts');
    const v = versionInfo();
    io.stdout.write(`${v.version} (${v.gitCommit}, ${v.buildDate})\n`);
    return 0;
  }
  // `pipeline-summary get-token doctor` is the doctor too, as `get-token doctor` is.
  if (name === 'get-token' && rest[0] === 'doctor') {
    const { doctorCommand } = await import('./commands/doctor.ts');
    return runCommand(doctorCommand('pipeline-summary get-token doctor'), rest.slice(1), io);
  }
  const command = COMMANDS[name];
  if (!command) {
    return reporter(io, 'pipeline-summary').fail(
      new CliError(
        'usage',
        `unknown command '${name}'. Run 'pipeline-summary --help' for the list.`,
      ),
    );
  }
  return runCommand(await command.load(), rest, io);
}
