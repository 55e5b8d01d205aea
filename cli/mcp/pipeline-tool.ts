/**
 * What every MCP tool of `pipeline-summary mcp` is: a name, words a model chooses it by, a zod
 * input shape (the SDK publishes it as the tool's JSON Schema and validates calls against it) and
 * a function from arguments to text. Answers are plain text, short and bounded: a coding agent
 * reads them into its context, so every list has a cap and every long text a character limit.
 * Failures become MCP tool errors (`isError`) carrying the service's own message.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ServiceClient } from '../service/service-client.ts';

/** One tool over the running service. */
export interface PipelineTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  annotations: ToolAnnotations;
  run(args: z.output<z.ZodObject<Shape>>, client: ServiceClient): Promise<string>;
}

/** Declares a tool, inferring its argument types from its input shape. */
export function pipelineTool<Shape extends z.ZodRawShape>(
  tool: PipelineTool<Shape>,
): PipelineTool<Shape> {
  return tool;
}

/** Every tool only reads: GitLab is never written to (an analysis is stored by the service). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** `text` cut to `max` characters, saying how much was left out. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).replace(/\n[^\n]*$/, '')}\n… [${text.length - max} more characters left out]`;
}

/** A list's first `max` items as lines, and a line saying how many more there are. */
export function capped<T>(items: readonly T[], max: number, line: (item: T) => string): string[] {
  const lines = items.slice(0, max).map(line);
  if (items.length > max) lines.push(`… and ${items.length - max} more`);
  return lines;
}

/** Seconds as `1h 02m`, `4m 28s` or `19s`; `?` when unknown. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** An ISO timestamp to the minute, in UTC (`2026-11-28 11:38Z`). */
export function minute(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` : '?';
}
