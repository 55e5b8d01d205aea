// Built-ins through getBuiltinModule: an ESM import of node:os builds its facade, which a cached
// get-token (bench/token.bench.ts) pays for although it rarely needs the home directory.
const nodePath = () => process.getBuiltinModule('node:path');
const nodeOs = () => process.getBuiltinModule('node:os');

/**
 * The product's config and data root: `PIPELINE_SUMMARY_HOME` when set, else the OS convention
 * (XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on macOS, %APPDATA% on
 * Windows), each with a `pipeline-summary` folder. Shared by the service, the CLI and the tray.
 */
export function appHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const path = nodePath();
  if (env.PIPELINE_SUMMARY_HOME) return path.resolve(env.PIPELINE_SUMMARY_HOME);
  const home = nodeOs().homedir();
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'pipeline-summary');
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'pipeline-summary');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'pipeline-summary');
}

/**
 * The keychain service name of a config root: plain "pipeline-summary" for the default root; any
 * other root (PIPELINE_SUMMARY_HOME) gets its own, so two installs — or a test run — never share
 * client secrets or the cache key by accident.
 */
export function keychainService(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const standard = appHome({ ...env, PIPELINE_SUMMARY_HOME: undefined });
  return nodePath().resolve(home) === standard ? 'pipeline-summary' : `pipeline-summary@${home}`;
}
