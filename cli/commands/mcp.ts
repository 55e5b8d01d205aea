/**
 * `pipeline-summary mcp`: an MCP server on stdio for coding agents, talking to the running
 * service (cli/mcp/). stdout carries only the protocol; diagnostics go to stderr.
 */
import { versionInfo } from '../../server/version.ts';
import { helpRequest, type Command } from '../command.ts';
import { parseFlags } from '../flags.ts';
import { serviceClient, serviceTarget, type ServiceTarget } from '../service/service-target.ts';

const HELP = `Usage: pipeline-summary mcp [--url URL]

Runs an MCP (Model Context Protocol) server on standard input and output for coding agents
(Claude Code, Cursor, VS Code…). Its tools read the running Pipeline Summary service; nothing
writes to GitLab:

  list_failures   failed pipelines and their failed jobs (filters as /api/pipelines/failures)
  get_pipeline    one pipeline with its jobs
  get_job_log     a job's log, distilled (failing step, decisive lines, excerpt) or a raw slice
  analyse_job     why a job failed: failing step, decisive lines and the AI analysis
  group_health    broken default branches and flaky jobs

Flags:
  --url URL    the service (env PIPELINE_SUMMARY_URL; default http://127.0.0.1:5100). A shared
               service needs its access token in PIPELINE_SUMMARY_ACCESS_TOKEN
  -h, --help   show this help

Examples:
  claude mcp add --transport stdio pipeline-summary -- pipeline-summary mcp
  claude mcp add --transport stdio --env PIPELINE_SUMMARY_ACCESS_TOKEN=… pipeline-summary \\
    -- pipeline-summary mcp --url https://ci-summary.example.com

Start the service first ('pipeline-summary serve'); until it answers, each tool says so.`;

/** mcp's options. */
export interface McpOptions {
  service: ServiceTarget;
}

/** The mcp command. */
export const mcpCommand: Command<McpOptions> = {
  program: 'pipeline-summary mcp',
  help: HELP,
  parse(argv, env) {
    const { values } = parseFlags(
      argv,
      {
        allowPositionals: false,
        options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      },
      'pipeline-summary mcp',
    );
    if (values.help) return helpRequest();
    return { service: serviceTarget(values.url, env) };
  },
  async run({ service }, { io, report }) {
    const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
      import('../mcp/mcp-server.ts'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const client = serviceClient(service, io.env, { warn: report.info });
    // MCP requires a version string; a bundle built without build info (the tests') has none.
    const server = createMcpServer(client, versionInfo().version || '0.0.0');
    const stdin = io.stdin as NodeJS.ReadStream;
    await server.connect(new StdioServerTransport(stdin, process.stdout));
    // A stdio client ends the session by closing our stdin (MCP spec, basic/transports/stdio);
    // the SDK's transport does not notice (typescript-sdk#2002), so we do, and exit.
    await new Promise<void>((resolve) => {
      stdin.once('end', resolve);
      stdin.once('close', resolve);
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await server.close();
    return 0;
  },
};
