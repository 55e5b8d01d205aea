/**
 * `pipeline-summary mcp`'s server, on the official SDK (McpServer + registerTool): the tools of
 * cli/mcp/tools/ over one running service. A tool that fails answers with an MCP tool error
 * (`isError: true`, the service's own message), never a protocol error, so the model reads why
 * (spec 2025-11-25, server/tools, "Error Handling").
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../service/service-client.ts';
import type { PipelineTool } from './pipeline-tool.ts';
import { analyseJobTool } from './tools/analyse-job.ts';
import { getPipelineTool } from './tools/get-pipeline.ts';
import { groupHealthTool } from './tools/group-health.ts';
import { getJobLogTool } from './tools/job-log.ts';
import { listFailuresTool } from './tools/list-failures.ts';

/** Every tool, in the order a client lists them. */
export const PIPELINE_TOOLS: readonly PipelineTool[] = [
  listFailuresTool,
  getPipelineTool,
  getJobLogTool,
  analyseJobTool,
  groupHealthTool,
];

const INSTRUCTIONS =
  'Read-only tools over a Pipeline Summary service that watches a GitLab group: start with list_failures or group_health, then get_pipeline, get_job_log and analyse_job with the ids they give. Projects are numeric ids (a full path also works for jobs).';

/** Builds the MCP server for `client`'s service; `version` is the CLI's own. */
export function createMcpServer(client: ServiceClient, version: string): McpServer {
  const server = new McpServer(
    { name: 'pipeline-summary', title: 'Pipeline Summary', version },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of PIPELINE_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: tool.annotations,
      },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const text = await tool.run(args as Parameters<typeof tool.run>[0], client);
          return { content: [{ type: 'text', text }] };
        } catch (err) {
          return {
            content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
            isError: true,
          };
        }
      },
    );
  }
  return server;
}
