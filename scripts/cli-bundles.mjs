// How the two CLI binaries are bundled, shared by scripts/build.mjs and the tests
// (cli/oauth/testing/cli-bundle.ts), so tests spawn exactly what ships.
//
// Each binary is two builds. Its entry (dist/cli/<name>.js) is one self-contained CommonJS file
// holding only the cached-token path (cli/oauth/cached-token.ts): a cache hit — what scripts
// calling get-token in a loop mostly get — loads that one file and nothing else
// (bench/token.bench.ts: ≤ 1.25× `node -e 0`). CommonJS because Node starts its ESM loader only
// for ESM: a one-file ESM entry costs ~14 ms more than the same file as CommonJS (measured on
// Node 24), a third of `node -e 0`. Anything else imports dist/cli/<name>-main.mjs, the full
// command as ESM, built with code splitting so each subcommand loads only its own chunks.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** Native addons and Electron stay outside the bundle; they are resolved from node_modules. */
export const CLI_EXTERNAL = ['better-sqlite3', '@napi-rs/keyring', 'electron'];

const BINARIES = [
  {
    name: 'pipeline-summary',
    entry: 'cli/pipeline-summary.ts',
    main: 'cli/pipeline-summary-main.ts',
  },
  { name: 'get-token', entry: 'cli/get-token.ts', main: 'cli/commands/get-token.ts' },
];

/**
 * Builds both binaries into `outdir` (absolute). `options` are extra esbuild options for every
 * build (define, sourcemap…).
 */
export async function buildCliBundles(root, outdir, options = {}) {
  for (const binary of BINARIES) {
    const mainFile = `${binary.name}-main.mjs`;
    await esbuild.build({
      ...options,
      absWorkingDir: root,
      entryPoints: { [binary.name]: binary.entry },
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      outdir,
      logLevel: 'warning',
      external: CLI_EXTERNAL,
      plugins: [
        {
          // The entry's dynamic import of the full command becomes the separately built file.
          name: 'cli-main-external',
          setup(build) {
            build.onResolve({ filter: /\.ts$/ }, (args) =>
              args.kind === 'dynamic-import' &&
              path.resolve(args.resolveDir, args.path) === path.resolve(root, binary.main)
                ? { path: `./${mainFile}`, external: true }
                : undefined,
            );
          },
        },
      ],
    });
    await esbuild.build({
      ...options,
      absWorkingDir: root,
      entryPoints: { [`${binary.name}-main`]: binary.main },
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      splitting: true,
      outExtension: { '.js': '.mjs' },
      outdir,
      chunkNames: 'chunks/[name]-[hash]',
      logLevel: 'warning',
      external: CLI_EXTERNAL,
      // ESM bundles of CommonJS dependencies need require/__dirname.
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url); const __filename = import.meta.filename; const __dirname = import.meta.dirname;",
      },
    });
  }
  // The entries are `.js` CommonJS wherever they are built (the repository's own package.json
  // says ESM); the full commands are `.mjs`.
  await writeFile(path.join(outdir, 'package.json'), JSON.stringify({ type: 'commonjs' }) + '\n');
}
