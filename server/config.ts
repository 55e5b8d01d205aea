import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseTrustedProxies, PROXY_HEADERS, type ProxyHeader } from './http/client-address.ts';
import { AppError } from './platform/errors.ts';
import { appHome } from './platform/paths.ts';
import { FileSettingsStore, type StoredSettings } from './settings/settings-store.ts';
import { resolveCadence } from './summary/cadence.ts';
import { parseSince } from './summary/since.ts';

/** Where GitLab is and what to read from it, as `serve`, `summary` and the desktop app resolve it. */
export interface GitLabSettings {
  gitlabUrl: string;
  group: string | undefined;
  since: string;
  demo: boolean;
  /** Where settings (and, for the service, the analysis database) live. */
  dataDir: string;
}

/** Resolved configuration of one service run (`serve` or the desktop app). */
export interface ServeConfig extends GitLabSettings {
  port: number;
  host: string;
  open: boolean;
  /** URLs others reach the service at (`--public-url`); their names pass the Host check. */
  publicUrls: string[];
  /**
   * Reverse proxies (`--trusted-proxy`: IP addresses or CIDR ranges) whose `Forwarded` or
   * `X-Forwarded-For` names the client for the wrong-token limit; only used when shared.
   */
  trustedProxies?: string[];
  /** The one forwarding header those proxies maintain (`--trusted-proxy-header`); both when absent. */
  trustedProxyHeader?: ProxyHeader;
  /** PEM files to serve HTTPS directly (`--tls-cert`, `--tls-key`). */
  tls?: { certFile: string; keyFile: string };
  /** The poller's cadences (`--poll-interval`, `--idle-interval`); default 10 s / 60 s. */
  cadence?: { fastIntervalMs: number; slowIntervalMs: number };
}

/** Command-line flags that feed the configuration (absent = not given). */
export interface ConfigFlags {
  port?: string;
  host?: string;
  gitlabUrl?: string;
  group?: string;
  since?: string;
  demo?: boolean;
  open?: boolean;
  dataDir?: string;
  publicUrl?: string[];
  trustedProxy?: string[];
  trustedProxyHeader?: string;
  tlsCert?: string;
  tlsKey?: string;
  pollInterval?: string;
  idleInterval?: string;
}

const DEFAULT_GITLAB_URL = 'https://gitlab.com';

function readStored(dataDir: string): StoredSettings {
  return existsSync(path.join(dataDir, 'settings.json'))
    ? new FileSettingsStore(dataDir).read()
    : {};
}

/** The one precedence rule (DESIGN §3.2): flags beat environment, which beats saved settings. */
function layered(flags: ConfigFlags, env: NodeJS.ProcessEnv, stored: StoredSettings) {
  const since = flags.since ?? stored.since ?? '7d';
  parseSince(since);
  return {
    gitlabUrl: flags.gitlabUrl ?? env.GITLAB_URL ?? stored.gitlabUrl ?? DEFAULT_GITLAB_URL,
    group: flags.group ?? env.GITLAB_GROUP ?? stored.group,
    since,
  };
}

/**
 * Resolves a service run's configuration. The demo keeps its settings in `<home>/demo` so it never
 * overwrites a real setup's group. Invalid values are `bad_request` errors that say what to use.
 */
export function resolveServeConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): ServeConfig {
  const demo = flags.demo ?? false;
  const portText = flags.port ?? env.PORT ?? '5100';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new AppError('bad_request', `Invalid port '${portText}': use a number from 0 to 65535`);
  }
  const dataDir = path.resolve(
    flags.dataDir ?? (demo ? path.join(appHome(env), 'demo') : appHome(env)),
  );
  const settings = layered(flags, env, readStored(dataDir));
  if (!demo && !isHttpUrl(settings.gitlabUrl)) {
    throw new AppError(
      'bad_request',
      `Invalid GitLab URL '${settings.gitlabUrl}': use an http(s) URL such as https://gitlab.example.com`,
    );
  }
  const publicUrls = (flags.publicUrl ?? [])
    .flatMap((u) => u.split(','))
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const url of publicUrls) {
    if (!isHttpUrl(url)) {
      throw new AppError(
        'bad_request',
        `Invalid public URL '${url}': use the http(s) URL people open, such as https://ci-summary.example.com`,
      );
    }
  }
  const trustedProxies = (flags.trustedProxy ?? [])
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter((a) => a !== '');
  parseTrustedProxies(trustedProxies);
  const header = flags.trustedProxyHeader?.trim().toLowerCase();
  if (header !== undefined && !PROXY_HEADERS.includes(header as ProxyHeader)) {
    throw new AppError(
      'bad_request',
      `Invalid --trusted-proxy-header '${flags.trustedProxyHeader}': use ${PROXY_HEADERS.join(' or ')}, the header your proxy sets`,
    );
  }
  if (header !== undefined && trustedProxies.length === 0) {
    throw new AppError(
      'bad_request',
      '--trusted-proxy-header says which header a trusted proxy sets: give the proxy with --trusted-proxy too',
    );
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new AppError('bad_request', 'Give both --tls-cert and --tls-key, or neither');
  }
  const stored = readStored(dataDir);
  const cadence = resolveCadence({
    poll: flags.pollInterval ?? env.POLL_INTERVAL ?? stored.pollInterval,
    idle: flags.idleInterval ?? env.IDLE_INTERVAL ?? stored.idleInterval,
  });
  return {
    ...settings,
    cadence,
    port: Number(portText),
    host: flags.host ?? '127.0.0.1',
    demo,
    open: flags.open ?? false,
    dataDir,
    publicUrls,
    trustedProxies,
    ...(header ? { trustedProxyHeader: header as ProxyHeader } : {}),
    ...(flags.tlsCert && flags.tlsKey
      ? { tls: { certFile: path.resolve(flags.tlsCert), keyFile: path.resolve(flags.tlsKey) } }
      : {}),
  };
}

/** Resolves what `summary` reads; the demo ignores saved settings (it has its own group). */
export function resolveSummarySettings(flags: ConfigFlags, env: NodeJS.ProcessEnv): GitLabSettings {
  const demo = flags.demo ?? false;
  const dataDir = path.resolve(flags.dataDir ?? appHome(env));
  return { ...layered(flags, env, demo ? {} : readStored(dataDir)), demo, dataDir };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
