import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCliBundles } from '../../../scripts/cli-bundles.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The CLI bundles built for a test file. */
export interface CliBundle {
  getToken: string;
  pipelineSummary: string;
  cleanup: () => Promise<void>;
}

/**
 * Builds `get-token` and `pipeline-summary` exactly as scripts/build.mjs does (scripts/cli-bundles.mjs),
 * into a private folder under node_modules/.cache (so the external native keyring still resolves),
 * so tests spawn exactly what ships without touching dist/.
 */
export async function buildCliBundle(): Promise<CliBundle> {
  const outdir = path.join(
    root,
    'node_modules/.cache/get-token-tests',
    `${process.pid}-${Date.now()}`,
  );
  await mkdir(outdir, { recursive: true });
  await buildCliBundles(root, outdir);
  return {
    getToken: path.join(outdir, 'get-token.js'),
    pipelineSummary: path.join(outdir, 'pipeline-summary.js'),
    cleanup: () => rm(outdir, { recursive: true, force: true }),
  };
}

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bundled script with this Node, a clean environment plus `env`, and optional stdin. */
export function runCli(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs a bundled script like `runCli`, calling `onStderr` with all stderr so far on each chunk,
 * so a test can act as the user while the command waits (approve a device code, open a URL).
 */
export function runCliInteractive(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; onStderr: (stderr: string) => void },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      options.onStderr(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
