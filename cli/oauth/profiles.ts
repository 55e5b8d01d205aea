import path from 'node:path';
import { FLOWS, normaliseScopes, splitScopes, type FlowName } from './cache-format.ts';
import { TokenError } from './errors.ts';
import {
  ensurePrivateDir,
  readTextIfExists,
  writeFileAtomic,
} from '../../server/platform/files.ts';

// The flows are part of the cache format (each entry records its flow); profiles name them too.
export { FLOWS, isUserFlow, type FlowName } from './cache-format.ts';

/** `prompt` values a profile may ask the authorization server for (OIDC Core §3.1.2.1). */
export const PROMPTS = ['none', 'login', 'consent', 'select_account'] as const;

/**
 * How a confidential client proves itself at the token endpoint: a secret (basic or post), or a
 * JWT signed with the certificate's key (`private_key_jwt`, RFC 7523; Entra's certificate
 * credentials).
 */
export const CLIENT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
] as const;

/**
 * A named get-token profile. The client secret is never here: it lives in the secret store under
 * `SECRET_ACCOUNTS.clientSecret(name)`.
 */
export interface Profile {
  name: string;
  /** OIDC issuer, discovered through /.well-known/openid-configuration. */
  issuer?: string;
  /**
   * Microsoft Entra ID tenant (id, domain, `common`, `organizations`), optionally after a host:
   * `login.microsoftonline.us/contoso.onmicrosoft.us`. Shorthand for its v2.0 issuer.
   */
  tenant?: string;
  /** Explicit endpoints, for servers without discovery. */
  tokenEndpoint?: string;
  authorizationEndpoint?: string;
  deviceAuthorizationEndpoint?: string;
  /** The app's client id; absent only in managed-identity profiles, which need no app. */
  clientId?: string;
  /**
   * The client id of the user-assigned managed identity the managed-identity flow asks for;
   * unset: the machine's system-assigned identity.
   */
  managedIdentityClientId?: string;
  /** Default scopes, used when get-token has no --scope. */
  scopes: string[];
  /** Default flow; client-credentials when unset. */
  flow?: FlowName;
  /** Fixed loopback port for the redirect URI (some servers register an exact port). */
  redirectPort?: number;
  /**
   * The loopback redirect URI registered with the app, e.g. Entra's `http://localhost` (any port,
   * exact path). Default: `http://127.0.0.1:<port>/callback`.
   */
  redirectUri?: string;
  /**
   * False to ask only for the profile's scopes in Entra user sign-ins; by default `offline_access`
   * (and `openid profile` with discovery) are added, as MSAL and az do, so Entra issues a refresh
   * token.
   */
  defaultUserScopes?: boolean;
  /**
   * A file holding a JWT from another issuer (GitHub Actions, GitLab CI, Kubernetes) sent as the
   * client assertion (workload identity federation). AZURE_FEDERATED_TOKEN_FILE sets it too.
   */
  federatedTokenFile?: string;
  /** RFC 8707 resource indicator sent with token and authorization requests. */
  resource?: string;
  /** `audience` parameter some servers (Auth0, Okta) use instead of `resource`. */
  audience?: string;
  /** `prompt` sent with browser flows. */
  prompt?: (typeof PROMPTS)[number];
  /** Client authentication when a secret is stored; client_secret_basic when unset. */
  clientAuth?: (typeof CLIENT_AUTH_METHODS)[number];
}

/** The on-disk shape of profiles.json. */
interface ProfilesFile {
  version: 1;
  profiles: Record<string, Omit<Profile, 'name'>>;
}

/** Path of the profiles file under a config root. */
export function profilesPath(home: string): string {
  return path.join(home, 'profiles.json');
}

/** Every profile, by name; an absent file means none. */
export async function loadProfiles(home: string): Promise<Map<string, Profile>> {
  const file = profilesPath(home);
  let text: string | undefined;
  try {
    text = await readTextIfExists(file);
  } catch (err) {
    throw new TokenError('general', `cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (text === undefined) return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new TokenError('general', `${file} is not valid JSON; fix it or remove it`, {
      cause: err,
    });
  }
  const profiles = (parsed as Partial<ProfilesFile> | null)?.profiles;
  if (typeof profiles !== 'object' || profiles === null) {
    throw new TokenError('general', `${file} has no "profiles" object; fix it or remove it`);
  }
  const out = new Map<string, Profile>();
  for (const [name, raw] of Object.entries(profiles)) {
    out.set(name, validateProfile({ ...(raw as object), name }, `${file}: profile '${name}'`));
  }
  return out;
}

/** One profile by name, or a `profile_not_found` error that says how to add it. */
export async function getProfile(home: string, name: string): Promise<Profile> {
  const profile = (await loadProfiles(home)).get(name);
  if (profile) return profile;
  throw new TokenError(
    'profile_not_found',
    `profile '${name}' not found in ${profilesPath(home)}. Run 'pipeline-summary profile list', or add it with 'pipeline-summary profile add ${name} --issuer URL --client-id ID'.`,
  );
}

/** Adds or replaces profiles (atomically, one write). */
export async function saveProfiles(home: string, profiles: Profile[]): Promise<void> {
  const all = await loadProfiles(home);
  for (const profile of profiles) all.set(profile.name, validateProfile(profile, profile.name));
  await writeProfiles(home, all);
}

/** Removes a profile; resolves to false when there was none. */
export async function removeProfile(home: string, name: string): Promise<boolean> {
  const all = await loadProfiles(home);
  if (!all.delete(name)) return false;
  await writeProfiles(home, all);
  return true;
}

async function writeProfiles(home: string, all: Map<string, Profile>): Promise<void> {
  const file: ProfilesFile = { version: 1, profiles: {} };
  for (const [name, profile] of [...all].sort(([a], [b]) => a.localeCompare(b))) {
    const { name: _name, ...rest } = profile;
    file.profiles[name] = rest;
  }
  await ensurePrivateDir(home);
  await writeFileAtomic(profilesPath(home), JSON.stringify(file, null, 2) + '\n', 0o600);
}

/** Checks a profile's fields and drops unknown ones; errors name the field and say what is wanted. */
export function validateProfile(raw: unknown, where: string): Profile {
  const r = (raw ?? {}) as Record<string, unknown>;
  const bad = (field: string, want: string): never => {
    throw new TokenError('usage', `${where}: ${field} ${want}`);
  };
  const str = (field: string): string | undefined => {
    const v = r[field];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') bad(field, 'must be a string');
    return v as string;
  };
  const url = (field: string): string | undefined => {
    const v = str(field);
    if (v === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(v);
    } catch {
      return bad(field, `'${v}' is not a URL`);
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed))) {
      bad(field, `'${v}' must use https (plain http only on localhost)`);
    }
    return v;
  };
  const oneOf = <T extends string>(field: string, values: readonly T[]): T | undefined => {
    const v = str(field);
    if (v !== undefined && !values.includes(v as T))
      bad(field, `must be one of ${values.join(', ')}`);
    return v as T | undefined;
  };

  const name = str('name');
  if (!name || !isValidProfileName(name)) {
    bad('name', 'must be 1–64 letters, digits, dots, dashes or underscores');
  }
  const flow = oneOf('flow', FLOWS);
  // A managed identity is the machine's own: no app registration, no issuer to discover.
  const managedIdentity = flow === 'managed-identity';
  const clientId = managedIdentity
    ? str('clientId')
    : (str('clientId') ?? bad('clientId', 'is required (--client-id)'));
  let scopes: string[] = [];
  if (Array.isArray(r.scopes)) scopes = r.scopes.map(String);
  else if (typeof r.scopes === 'string') scopes = splitScopes(r.scopes);
  else if (r.scopes !== undefined) bad('scopes', 'must be a list of scopes');
  const profile: Profile = {
    name: name!,
    issuer: normaliseAuthority(url('issuer'), (want) => bad('issuer', want)),
    tenant: str('tenant'),
    tokenEndpoint: url('tokenEndpoint'),
    authorizationEndpoint: url('authorizationEndpoint'),
    deviceAuthorizationEndpoint: url('deviceAuthorizationEndpoint'),
    clientId,
    managedIdentityClientId: str('managedIdentityClientId'),
    scopes: normaliseScopes(scopes),
    flow,
    resource: str('resource'),
    audience: str('audience'),
    prompt: oneOf('prompt', PROMPTS),
    clientAuth: oneOf('clientAuth', CLIENT_AUTH_METHODS),
    redirectUri: str('redirectUri'),
    federatedTokenFile: str('federatedTokenFile'),
  };
  if (r.defaultUserScopes === false) profile.defaultUserScopes = false;
  else if (r.defaultUserScopes !== undefined && r.defaultUserScopes !== true) {
    bad('defaultUserScopes', 'must be true or false');
  }
  if (profile.redirectUri !== undefined) {
    let redirect: URL | undefined;
    try {
      redirect = new URL(profile.redirectUri);
    } catch {
      // reported below
    }
    if (!redirect || redirect.protocol !== 'http:' || !isLoopbackHost(redirect)) {
      bad(
        'redirectUri',
        `'${profile.redirectUri}' must be a loopback http URL such as http://localhost or http://127.0.0.1:8400/callback`,
      );
    }
  }
  if (r.redirectPort !== undefined && r.redirectPort !== null) {
    const port = Number(r.redirectPort);
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      bad('redirectPort', 'must be 1–65535');
    profile.redirectPort = port;
  }
  if (profile.tenant) {
    const [host, tenant] = splitTenant(profile.tenant);
    if (!/^[A-Za-z0-9.-]+$/.test(tenant) || (host !== undefined && !isEntraHost(host))) {
      bad(
        'tenant',
        'must be a tenant id or domain, optionally after a Microsoft Entra host (login.microsoftonline.us/TENANT)',
      );
    }
  }
  if (!managedIdentity && !profile.issuer && !profile.tenant && !profile.tokenEndpoint) {
    bad('issuer', 'is required (--issuer URL, --tenant T, or --token-endpoint URL)');
  }
  for (const key of Object.keys(profile) as (keyof Profile)[]) {
    if (profile[key] === undefined) delete profile[key];
  }
  return profile;
}

/** True for names usable as profile names (they appear in keychain accounts and file names). */
export function isValidProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name);
}

/** The issuer to discover: the explicit one, else Entra ID's v2.0 issuer for the tenant. */
export function issuerOf(profile: Profile): string | undefined {
  if (profile.issuer) return profile.issuer;
  if (profile.tenant) {
    const [host = 'login.microsoftonline.com', tenant] = splitTenant(profile.tenant);
    return `https://${host}/${tenant}/v2.0`;
  }
  return undefined;
}

/** `HOST/TENANT` or `TENANT` → [host | undefined, tenant]. */
function splitTenant(value: string): [string | undefined, string] {
  const slash = value.indexOf('/');
  return slash < 0
    ? [undefined, value]
    : [value.slice(0, slash).toLowerCase(), value.slice(slash + 1).replace(/\/+$/, '')];
}

// Microsoft Entra ID's sign-in hosts: public cloud (and its legacy alias), US Government, China
// (21Vianet), and External ID tenants on *.ciamlogin.com
// (https://learn.microsoft.com/entra/identity-platform/authentication-national-cloud).
const ENTRA_HOSTS = new Set([
  'login.microsoftonline.com',
  'login.microsoft.com',
  'login.windows.net',
  'login.microsoftonline.us',
  'login.partner.microsoftonline.cn',
  'login.chinacloudapi.cn',
]);

/** True for a Microsoft Entra ID sign-in host. */
export function isEntraHost(host: string): boolean {
  const h = host.toLowerCase();
  return ENTRA_HOSTS.has(h) || h.endsWith('.ciamlogin.com');
}

/**
 * An Entra authority as MSAL and az take it (`https://login.microsoftonline.com/<tenant>`, no
 * `/v2.0`) becomes its v2.0 issuer: discovery under the bare authority is the v1 endpoint, whose
 * tokens and issuer differ. Other Entra paths are refused rather than run against v1; other
 * issuers pass unchanged.
 */
export function normaliseAuthority(
  issuer: string | undefined,
  refuse: (want: string) => never,
): string | undefined {
  if (issuer === undefined) return undefined;
  const url = new URL(issuer);
  if (url.protocol !== 'https:' || !isEntraHost(url.hostname)) return issuer;
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts.length === 2 && parts[1] === 'v2.0') return `${url.origin}/${parts[0]}/v2.0`;
  if (parts.length === 1) return `${url.origin}/${parts[0]}/v2.0`;
  return refuse(
    `'${issuer}' is not a Microsoft Entra authority: use https://${url.host}/<tenant>/v2.0 (or --tenant <tenant>)`,
  );
}

export { normaliseScopes, splitScopes } from './cache-format.ts';

/** True for http URLs the product accepts without TLS: the machine itself. */
export function isLoopbackHost(url: URL): boolean {
  return (
    ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.')
  );
}
