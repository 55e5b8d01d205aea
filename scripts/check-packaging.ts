// `npm run check:packaging`: validates electron-builder.yml against electron-builder's own schema
// (node_modules/app-builder-lib/scheme.json, compiled with ajv the way app-builder-lib does), checks
// that native modules are rebuilt for Electron's ABI (better-sqlite3 is not N-API, so a package
// built against Node's ABI would crash at start), and that every file the config and the app
// reference exists. Patterns under dist/ need `npm run build` first.
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { allTrayIconFiles } from '../main/tray-icons.ts';

/** One problem found, with the config path it concerns. */
export interface PackagingProblem {
  where: string;
  message: string;
}

type Config = Record<string, unknown>;

/** Native modules the app loads at run time that need rebuilding for Electron (not N-API). */
const NATIVE_NOT_NAPI = ['better-sqlite3'];

/** Checks the electron-builder config in `root`; returns every problem (empty when packaging is sound). */
export function checkPackaging(
  root: string,
  configFile = 'electron-builder.yml',
): PackagingProblem[] {
  const problems: PackagingProblem[] = [];
  const config = parse(readFileSync(path.resolve(root, configFile), 'utf8')) as Config;
  const scheme = JSON.parse(
    readFileSync(path.join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
  ) as object;
  // strict: false lets ajv skip the schema's custom `typeof: function` keyword, as app-builder-lib does.
  const validate = new Ajv({ allErrors: true, strict: false }).compile(scheme);
  if (!validate(config)) {
    for (const err of validate.errors ?? []) {
      if (err.keyword === 'anyOf') continue; // the specific branch errors say more
      problems.push({
        where: `schema ${err.instancePath || '/'}`,
        message: `${err.message ?? 'invalid'}${err.keyword === 'additionalProperties' ? `: ${JSON.stringify(err.params)}` : ''}`,
      });
    }
  }

  // Native modules: electron-builder rebuilds production dependencies for Electron unless told not to.
  if (config.npmRebuild === false)
    problems.push({
      where: 'npmRebuild',
      message: 'is false: better-sqlite3 would keep the Node ABI and crash under Electron',
    });
  if (config.beforeBuild !== undefined)
    problems.push({
      where: 'beforeBuild',
      message:
        'is set: a hook resolving to false skips the native rebuild; rebuild explicitly instead',
    });
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    main?: string;
    dependencies?: Record<string, string>;
  };
  for (const name of NATIVE_NOT_NAPI) {
    if (!pkg.dependencies?.[name])
      problems.push({
        where: `package.json dependencies`,
        message: `${name} is not a production dependency, so electron-builder would not ship or rebuild it`,
      });
  }
  const unpack = ([] as unknown[]).concat(config.asarUnpack ?? []);
  if (!unpack.some((p) => typeof p === 'string' && p.includes('*.node')))
    problems.push({
      where: 'asarUnpack',
      message: 'must unpack **/*.node: native addons cannot load from inside app.asar',
    });

  // Every referenced file exists.
  const must = (where: string, rel: string) => {
    if (!existsSync(path.join(root, rel)))
      problems.push({ where, message: `${rel} does not exist${hint(rel)}` });
  };
  if (pkg.main) must('package.json main', pkg.main);
  const dirs = (config.directories ?? {}) as { buildResources?: string };
  const buildResources = dirs.buildResources ?? 'build';
  must('directories.buildResources', buildResources);
  must('icon (buildResources/icon.png)', path.join(buildResources, 'icon.png'));
  for (const pattern of ([] as unknown[]).concat(config.files ?? [])) {
    if (typeof pattern !== 'string' || pattern.startsWith('!')) continue;
    if (globSync(pattern, { cwd: root }).length === 0)
      problems.push({ where: 'files', message: `${pattern} matches nothing${hint(pattern)}` });
  }
  const extra = ([] as unknown[]).concat(config.extraResources ?? []);
  for (const [i, entry] of extra.entries()) {
    const from = typeof entry === 'string' ? entry : (entry as { from?: string }).from;
    if (from) must(`extraResources[${i}].from`, from);
  }
  // The tray icons main.ts loads from resources/assets in the packaged app.
  const assets = extra.find(
    (e): e is { from: string; to: string; filter?: string[] } =>
      typeof e === 'object' && e !== null && (e as { to?: string }).to === 'assets',
  );
  if (!assets)
    problems.push({
      where: 'extraResources',
      message: 'no entry copies assets/ to resources/assets (the tray icons)',
    });
  for (const file of allTrayIconFiles()) {
    must('tray icon', path.join(assets?.from ?? 'assets', file));
    if (assets?.filter && !assets.filter.some((f) => path.matchesGlob(file, f)))
      problems.push({
        where: 'extraResources assets filter',
        message: `${file} is not copied into the package`,
      });
  }
  return problems;
}

function hint(rel: string): string {
  return rel.startsWith('dist') ? ' (run `npm run build` first)' : '';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(import.meta.dirname, '..');
  const problems = checkPackaging(root);
  for (const p of problems) console.error(`✗ ${p.where}: ${p.message}`);
  if (problems.length > 0) {
    console.error(`electron-builder.yml: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.error(
    'electron-builder.yml: valid, native modules rebuilt for Electron, every file present',
  );
}
