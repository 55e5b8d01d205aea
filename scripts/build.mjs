// Builds everything `npm run build` ships: the CLI bundles (esbuild), the Electron main/preload
// bundles, and the dashboard (Vite) when its sources exist. Version, commit and date are baked in.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { recordBuild } from './build-stamp.mjs';
import { buildCliBundles, CLI_EXTERNAL } from './cli-bundles.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const only = process.argv.slice(2);
const wants = (part) => only.length === 0 || only.includes(part);

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

const buildInfo = {
  version: pkg.version,
  gitCommit: gitCommit(),
  buildDate: new Date().toISOString().slice(0, 10),
};
// Native addons and Electron stay outside the bundle; they are resolved from node_modules at run time.
const external = CLI_EXTERNAL;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  external,
  define: { __BUILD_INFO__: JSON.stringify(buildInfo) },
};

const started = Date.now();
if (wants('cli')) {
  rmSync(path.join(root, 'dist/cli'), { recursive: true, force: true });
  // Each binary: a one-file entry for cached tokens plus the full command (scripts/cli-bundles.mjs).
  await buildCliBundles(root, path.join(root, 'dist/cli'), {
    sourcemap: 'linked',
    legalComments: 'none',
    define: { __BUILD_INFO__: JSON.stringify(buildInfo) },
  });
}
if (wants('main') && existsSync(path.join(root, 'main/main.ts'))) {
  await esbuild.build({
    ...common,
    absWorkingDir: root,
    entryPoints: { main: 'main/main.ts', preload: 'main/preload.ts' },
    outdir: 'dist/main',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Shared modules locate files with import.meta.url; give the CommonJS bundle a real one.
    define: { ...common.define, 'import.meta.url': '__importMetaUrl' },
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
}
if (wants('renderer') && existsSync(path.join(root, 'renderer/index.html'))) {
  const { build } = await import('vite');
  await build({
    root: path.join(root, 'renderer'),
    logLevel: 'warn',
    configFile: path.join(root, 'renderer/vite.config.ts'),
  });
}
recordBuild(root, only, buildInfo);
console.error(
  `built ${only.length ? only.join(', ') : 'everything'} in ${Date.now() - started} ms`,
);
