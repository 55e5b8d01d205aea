import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { VersionInfo } from './contract.ts';

/** Baked in by scripts/build.mjs (esbuild `define`); absent when running from source. */
declare const __BUILD_INFO__: VersionInfo | undefined;

/**
 * The running build's version. Bundles carry the commit and date baked at build time; from source
 * (tests, tsx) we read package.json and ask git, falling back to "unknown".
 */
export function versionInfo(): VersionInfo {
  if (typeof __BUILD_INFO__ !== 'undefined') return __BUILD_INFO__;
  let version = '0.0.0';
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    version = pkg.version;
  } catch {
    // Not in a checkout: keep the placeholder.
  }
  let gitCommit = 'unknown';
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    // No git or no commits: development build.
  }
  return { version, gitCommit, buildDate: new Date().toISOString().slice(0, 10) };
}
