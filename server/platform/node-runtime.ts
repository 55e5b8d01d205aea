import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** The Node major the service runs on: the `node` devDependency npm scripts run on (a test checks). */
export const REQUIRED_NODE_MAJOR = 24;

const HOW_TO_RUN = `run it with 'npm run serve' or 'npx pipeline-summary' in the project folder, which use the project's Node ${REQUIRED_NODE_MAJOR}`;

/** One line when `version` is not the Node the project needs, else null. */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split('.')[0]);
  return major === REQUIRED_NODE_MAJOR
    ? null
    : `Node ${REQUIRED_NODE_MAJOR} is required (this is Node ${version}); ${HOW_TO_RUN}`;
}

/**
 * Loads the native SQLite module in a child process first: a module built for another Node ABI
 * does not throw, it kills the process (SIGSEGV, exit 139), which no try/catch can report.
 */
export function nativeModuleProblem(nodePath: string = process.execPath): string | null {
  let modulePath: string;
  try {
    modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return `better-sqlite3 is not installed; run 'npm ci' in the project folder`;
  }
  const probe = spawnSync(
    nodePath,
    [
      '-e',
      "const D = require(process.argv[1]); new D(':memory:').prepare('select 1').get();",
      modulePath,
    ],
    { stdio: 'ignore', timeout: 30_000 },
  );
  if (probe.status === 0) return null;
  const how = probe.signal ? `crashed with ${probe.signal}` : `failed (exit ${probe.status})`;
  return `The native SQLite module (better-sqlite3) ${how} on this Node; ${HOW_TO_RUN}, or reinstall with 'npm ci'`;
}

/** The first reason this process cannot run the service, as one line, or null. */
export function nodeRuntimeProblem(): string | null {
  return nodeVersionProblem() ?? nativeModuleProblem();
}
