/**
 * `pipeline-summary profile add|list|show|remove|export|import`: manages get-token profiles. Fully
 * scriptable; client secrets go to the secret store (from stdin, or a masked prompt on a terminal),
 * never into the profiles file or an unencrypted export.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../server/platform/files.ts';
import {
  openSecretStore,
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { appHome } from '../../server/platform/paths.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../../server/platform/secret-store.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError, EXIT_STATUS } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { readSecret, readStdin, type CliIo, type Reporter } from '../io.ts';
import { forgetProfileTokens } from '../oauth/engine.ts';
import { readCertificateKey } from '../oauth/flows/client-assertion.ts';
import { decryptSecrets, exportProfiles, parseProfileBundle } from '../oauth/profile-transfer.ts';
import {
  getProfile,
  issuerOf,
  loadProfiles,
  profilesPath,
  removeProfile,
  saveProfiles,
  validateProfile,
  type Profile,
} from '../oauth/profiles.ts';

const HELP = `Usage: pipeline-summary profile <action> [flags]

  add NAME --issuer URL --client-id ID [--client-secret-stdin] [--scope "a b"] [--flow F]
           [--tenant [HOST/]T] [--redirect-port N] [--redirect-uri URI] [--resource R]
           [--audience A] [--prompt P] [--client-auth client_secret_basic|client_secret_post]
           [--certificate PATH [--certificate-password-stdin]] [--federated-token-file PATH]
           [--no-default-scopes]
           [--token-endpoint URL] [--authorization-endpoint URL] [--device-authorization-endpoint URL]
  add NAME --flow managed-identity --resource URI [--managed-identity-client-id ID]
      Adds or replaces a profile. --tenant T is Microsoft Entra ID's v2.0 issuer for tenant T
      (id, domain, common or organizations), on login.microsoftonline.com unless a host is given
      (login.microsoftonline.us/T, login.partner.microsoftonline.cn/T, T.ciamlogin.com/T); an
      Entra authority without /v2.0 (MSAL/az form) is turned into its v2.0 issuer.
      --token-endpoint (and friends) replace discovery; --device-authorization-endpoint also
      adds to it (GitLab does not publish one). The client secret is read from stdin with
      --client-secret-stdin, or from a masked prompt on a terminal when the flow needs one.
      --certificate PATH signs client assertions with a certificate + private key instead of a
      secret: PEM, or PKCS#12 (.pfx/.p12); kept in the secret store. The password of an
      encrypted key or .pfx comes from stdin with --certificate-password-stdin. --federated-token-file PATH sends the JWT in PATH instead
      (workload identity federation). --redirect-uri sets the loopback redirect registered for
      the app (Entra: http://localhost). User sign-ins at Entra ask for offline_access (and
      openid profile) too, as MSAL does, unless --no-default-scopes.
      --flow managed-identity uses the Azure managed identity of the machine (VM, scale set,
      AKS node: IMDS) or app (App Service, Functions, Container Apps: IDENTITY_ENDPOINT): no
      issuer, client id or secret. --resource (or one --scope URI/.default) names what the token
      is for; --managed-identity-client-id picks a user-assigned identity (default: the
      system-assigned one).
      Example: profile add arm --flow managed-identity --resource https://management.azure.com
  list [-o text|json]              all profiles
  show NAME [-o text|json]         one profile, and whether its client secret is stored
  remove NAME                      the profile, its client secret and its cached tokens
  export [NAME...] [--file PATH] [--include-secrets [--passphrase-stdin]]
      Writes profiles as JSON (to stdout, or PATH with mode 0600). Secrets are left out unless
      --include-secrets: then they are encrypted with a passphrase (scrypt + AES-256-GCM).
  import FILE|- [--overwrite] [--passphrase-stdin]
      Adds the profiles of an export (existing names are kept unless --overwrite) and, given the
      passphrase, their client secrets.

All actions take --store keychain|file|auto (default: $PIPELINE_SUMMARY_SECRET_STORE, else auto).
`;

const ACTIONS = ['add', 'list', 'show', 'remove', 'export', 'import'] as const;

/** profile's options: the action, its NAMEs or FILE, and the flags as given. */
export interface ProfileCommandOptions {
  action: (typeof ACTIONS)[number];
  names: string[];
  home: string;
  store: SecretStoreMode | undefined;
  values: Record<string, string | boolean | undefined>;
}

/** The profile command. */
export const profileCommand: Command<ProfileCommandOptions> = {
  program: 'pipeline-summary profile',
  help: HELP,
  parse(argv, env) {
    const { values, positionals } = parseFlags(
      argv,
      {
        allowPositionals: true,
        options: {
          issuer: { type: 'string' },
          tenant: { type: 'string' },
          'token-endpoint': { type: 'string' },
          'authorization-endpoint': { type: 'string' },
          'device-authorization-endpoint': { type: 'string' },
          'client-id': { type: 'string' },
          'client-secret-stdin': { type: 'boolean' },
          'client-auth': { type: 'string' },
          scope: { type: 'string', short: 's' },
          flow: { type: 'string', short: 'f' },
          'redirect-port': { type: 'string' },
          'redirect-uri': { type: 'string' },
          certificate: { type: 'string' },
          'certificate-password-stdin': { type: 'boolean' },
          'federated-token-file': { type: 'string' },
          'managed-identity-client-id': { type: 'string' },
          'no-default-scopes': { type: 'boolean' },
          resource: { type: 'string' },
          audience: { type: 'string' },
          prompt: { type: 'string' },
          output: { type: 'string', short: 'o' },
          file: { type: 'string' },
          'include-secrets': { type: 'boolean' },
          'passphrase-stdin': { type: 'boolean' },
          overwrite: { type: 'boolean' },
          store: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      },
      'pipeline-summary profile',
    );
    const [action, ...names] = positionals;
    if (values.help) return helpRequest();
    if (action === undefined) return helpRequest(EXIT_STATUS.usage);
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new CliError(
        'usage',
        `unknown action '${action}'; use add, list, show, remove, export or import`,
      );
    }
    return {
      action: action as ProfileCommandOptions['action'],
      names,
      home: appHome(env),
      store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
      values,
    };
  },
  async run({ action, names, home, store: mode, values }, { io, report }) {
    const secrets = () => openSecretStore({ home, mode, env: io.env, warn: report.info });
    const ctx: Ctx = { io, report, home, secrets, values, names };
    switch (action) {
      case 'add':
        return add(ctx);
      case 'list':
        return list(ctx);
      case 'show':
        return show(ctx);
      case 'remove':
        return remove(ctx, mode);
      case 'export':
        return exportCommand(ctx);
      case 'import':
        return importCommand(ctx);
    }
  },
};

interface Ctx {
  io: CliIo;
  report: Reporter;
  home: string;
  secrets: () => Promise<SecretStore>;
  values: Record<string, string | boolean | undefined>;
  names: string[];
}

function oneName(ctx: Ctx, action: string): string {
  if (ctx.names.length !== 1) {
    throw new CliError('usage', `profile ${action} takes one profile NAME`);
  }
  return ctx.names[0]!;
}

async function add(ctx: Ctx): Promise<number> {
  const name = oneName(ctx, 'add');
  const v = ctx.values as Record<string, string | undefined>;
  const existing = (await loadProfiles(ctx.home)).get(name);
  const secretFromStdin = ctx.values['client-secret-stdin'] === true;
  const certificateFile = v.certificate;
  const federatedTokenFile = v['federated-token-file'];
  if (secretFromStdin && ctx.values['certificate-password-stdin'] === true) {
    throw new CliError(
      'usage',
      'stdin holds either the client secret or the certificate password, not both',
    );
  }
  const appCredential = secretFromStdin || certificateFile || federatedTokenFile;
  const managedIdentityClientId = v['managed-identity-client-id'];
  const flow =
    v.flow ??
    (managedIdentityClientId
      ? 'managed-identity'
      : appCredential
        ? 'client-credentials'
        : 'interactive');
  const profile = validateProfile(
    {
      name,
      issuer: v.issuer,
      tenant: v.tenant,
      tokenEndpoint: v['token-endpoint'],
      authorizationEndpoint: v['authorization-endpoint'],
      deviceAuthorizationEndpoint: v['device-authorization-endpoint'],
      clientId: v['client-id'],
      scopes: v.scope ?? [],
      flow,
      redirectPort: v['redirect-port'],
      redirectUri: v['redirect-uri'],
      resource: v.resource,
      audience: v.audience,
      prompt: v.prompt,
      clientAuth: certificateFile ? 'private_key_jwt' : v['client-auth'],
      federatedTokenFile: federatedTokenFile ? path.resolve(federatedTokenFile) : undefined,
      managedIdentityClientId,
      defaultUserScopes: ctx.values['no-default-scopes'] === true ? false : undefined,
    },
    `profile add ${name}`,
  );
  if (v.issuer && profile.issuer !== v.issuer) {
    ctx.report.info(`note: using the v2.0 issuer ${profile.issuer} for the authority ${v.issuer}`);
  }
  let certificate: string | undefined;
  if (certificateFile) {
    const password =
      ctx.values['certificate-password-stdin'] === true ? await readSecret(ctx.io) : undefined;
    certificate = await readCertificateFile(certificateFile, password);
  }
  let secret: string | undefined;
  if (secretFromStdin) {
    secret = await readSecret(ctx.io);
  } else if (
    flow === 'client-credentials' &&
    !certificateFile &&
    !federatedTokenFile &&
    ctx.io.stdin.isTTY
  ) {
    secret = await readSecret(ctx.io, `Client secret for '${name}': `);
  }
  await saveProfiles(ctx.home, [profile]);
  const store = await ctx.secrets();
  const account = SECRET_ACCOUNTS.clientSecret(name);
  if (secret !== undefined) await store.set(account, secret);
  if (certificate !== undefined) {
    await store.set(SECRET_ACCOUNTS.clientCertificate(name), certificate);
  }
  ctx.report.info(
    `${existing ? 'updated' : 'added'} profile '${name}' in ${profilesPath(ctx.home)}` +
      (secret !== undefined ? `; client secret stored in ${store.backend}` : '') +
      (certificate !== undefined ? `; certificate and key stored in ${store.backend}` : ''),
  );
  if (
    secret === undefined &&
    flow === 'client-credentials' &&
    !certificateFile &&
    !federatedTokenFile &&
    !(await store.get(account))
  ) {
    ctx.report.info(
      `note: no client secret is stored for '${name}'; client-credentials needs one: echo SECRET | pipeline-summary profile add ${name} … --client-secret-stdin`,
    );
  }
  return 0;
}

/**
 * The certificate and private key in `file` as unencrypted PEM for the secret store: a PEM bundle
 * (key encrypted with `password` or not), or a PKCS#12 file (.pfx/.p12, with `password` or none).
 */
async function readCertificateFile(file: string, password: string | undefined): Promise<string> {
  const data = await readFile(file).catch((err: unknown) => {
    throw new CliError('usage', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  });
  const text = data.toString('utf8');
  if (!text.includes('-----BEGIN')) {
    const { readPkcs12 } = await import('../oauth/pkcs12.ts');
    const { certPem, keyPem } = await readPkcs12(data, password ?? '', file);
    const bundle = `${certPem}${keyPem}`;
    readCertificateKey(bundle, file);
    return bundle;
  }
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(text)?.[0];
  if (!cert) throw new CliError('usage', `${file} holds no PEM certificate`);
  let keyPem: string;
  try {
    keyPem = createPrivateKey({ key: text, passphrase: password })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
  } catch (err) {
    throw new CliError(
      'usage',
      `cannot read the private key in ${file}${password === undefined ? ' (encrypted? pass its password with --certificate-password-stdin)' : ''}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const bundle = `${cert}\n${keyPem}`;
  readCertificateKey(bundle, file);
  return bundle;
}

async function list(ctx: Ctx): Promise<number> {
  const profiles = [...(await loadProfiles(ctx.home)).values()].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  if (ctx.values.output === 'json') {
    ctx.io.stdout.write(JSON.stringify(profiles, null, 2) + '\n');
    return 0;
  }
  if (profiles.length === 0) {
    ctx.report.info(
      `no profiles yet in ${profilesPath(ctx.home)}; add one with 'pipeline-summary profile add NAME --issuer URL --client-id ID'`,
    );
    return 0;
  }
  const rows = [
    ['NAME', 'FLOW', 'ISSUER', 'CLIENT ID', 'SCOPES'],
    ...profiles.map((p) => [
      p.name,
      p.flow ?? 'client-credentials',
      issuerOf(p) ??
        p.tokenEndpoint ??
        (p.flow === 'managed-identity' ? '(Azure managed identity)' : ''),
      p.flow === 'managed-identity'
        ? (p.managedIdentityClientId ?? 'system-assigned')
        : (p.clientId ?? ''),
      p.scopes.join(' ') || (p.resource ?? ''),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  ctx.io.stdout.write(
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n',
  );
  return 0;
}

async function show(ctx: Ctx): Promise<number> {
  const profile = await getProfile(ctx.home, oneName(ctx, 'show'));
  const store = await ctx.secrets();
  const hasSecret = (await store.get(SECRET_ACCOUNTS.clientSecret(profile.name))) !== undefined;
  const certificate =
    profile.clientAuth === 'private_key_jwt'
      ? await store.get(SECRET_ACCOUNTS.clientCertificate(profile.name))
      : undefined;
  const certificateLine = certificate
    ? (() => {
        const cert = readCertificateKey(certificate, `the certificate of '${profile.name}'`);
        return `${cert.subject}, x5t#S256 ${cert.thumbprintS256}, valid to ${cert.validTo}; stored in ${store.backend}`;
      })()
    : undefined;
  if (ctx.values.output === 'json') {
    ctx.io.stdout.write(
      JSON.stringify(
        { ...profile, clientSecretStored: hasSecret, certificateStored: certificate !== undefined },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const lines = Object.entries(profile).map(
    ([k, v]) => `${(k + ':').padEnd(28)}${Array.isArray(v) ? v.join(' ') : String(v)}`,
  );
  if (profile.tenant && !profile.issuer)
    lines.push(`${'issuer (from tenant):'.padEnd(28)}${issuerOf(profile)}`);
  lines.push(
    `${'client secret:'.padEnd(28)}${hasSecret ? `stored in ${store.backend}` : profile.flow === 'managed-identity' ? 'none needed (managed identity)' : 'not stored'}`,
  );
  if (profile.clientAuth === 'private_key_jwt') {
    lines.push(`${'certificate:'.padEnd(28)}${certificateLine ?? 'not stored'}`);
  }
  ctx.io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

async function remove(ctx: Ctx, mode: SecretStoreMode | undefined): Promise<number> {
  const name = oneName(ctx, 'remove');
  await getProfile(ctx.home, name);
  const store = await ctx.secrets();
  await store.delete(SECRET_ACCOUNTS.clientSecret(name));
  await store.delete(SECRET_ACCOUNTS.clientCertificate(name));
  const forgotten = await forgetProfileTokens(
    name,
    { home: ctx.home, store: mode },
    { secretStore: store, notify: ctx.report.info },
  );
  await removeProfile(ctx.home, name);
  ctx.report.info(
    `removed profile '${name}', its client secret and ${forgotten} cached token${forgotten === 1 ? '' : 's'}`,
  );
  return 0;
}

async function exportCommand(ctx: Ctx): Promise<number> {
  const all = await loadProfiles(ctx.home);
  const chosen: Profile[] = [];
  if (ctx.names.length === 0) chosen.push(...all.values());
  for (const name of ctx.names) chosen.push(await getProfile(ctx.home, name));
  chosen.sort((a, b) => a.name.localeCompare(b.name));
  let secrets: { values: Record<string, string>; passphrase: string } | undefined;
  if (ctx.values['include-secrets']) {
    const store = await ctx.secrets();
    const values: Record<string, string> = {};
    for (const p of chosen) {
      const s = await store.get(SECRET_ACCOUNTS.clientSecret(p.name));
      if (s !== undefined) values[p.name] = s;
    }
    secrets = { values, passphrase: await passphrase(ctx, true) };
  }
  const text = JSON.stringify(await exportProfiles(chosen, secrets), null, 2) + '\n';
  const file = ctx.values.file as string | undefined;
  if (file) {
    await writeFileAtomic(file, text, 0o600);
    ctx.report.info(
      `exported ${chosen.length} profile${chosen.length === 1 ? '' : 's'} to ${file}${secrets ? ' with encrypted client secrets' : ' (without secrets)'}`,
    );
  } else {
    ctx.io.stdout.write(text);
  }
  return 0;
}

async function importCommand(ctx: Ctx): Promise<number> {
  if (ctx.names.length !== 1)
    throw new CliError('usage', 'profile import takes one FILE (or - for stdin)');
  const source = ctx.names[0]!;
  let text: string;
  if (source === '-') {
    if (ctx.values['passphrase-stdin']) {
      throw new CliError('usage', 'cannot read both the export and the passphrase from stdin');
    }
    text = await readStdin(ctx.io);
  } else {
    text = await readFile(source, 'utf8').catch((err: unknown) => {
      throw new CliError('usage', `cannot read ${source}: ${(err as Error).message}`, {
        cause: err,
      });
    });
  }
  const { profiles, bundle } = parseProfileBundle(text, source === '-' ? 'stdin' : source);
  const existing = await loadProfiles(ctx.home);
  const overwrite = ctx.values.overwrite === true;
  const taken = profiles.filter((p) => !existing.has(p.name) || overwrite);
  const skipped = profiles.filter((p) => !taken.includes(p));
  let secrets: Record<string, string> = {};
  if (bundle.secrets) {
    const canAsk = ctx.values['passphrase-stdin'] === true || ctx.io.stdin.isTTY === true;
    if (canAsk) secrets = await decryptSecrets(bundle, await passphrase(ctx, false));
    else
      ctx.report.info(
        'note: the export has encrypted client secrets; give --passphrase-stdin to import them',
      );
  }
  await saveProfiles(ctx.home, taken);
  const store = await ctx.secrets();
  let stored = 0;
  for (const p of taken) {
    const secret = secrets[p.name];
    if (secret !== undefined) {
      await store.set(SECRET_ACCOUNTS.clientSecret(p.name), secret);
      stored++;
    }
  }
  ctx.report.info(
    `imported ${taken.length} profile${taken.length === 1 ? '' : 's'}` +
      (stored ? ` and ${stored} client secret${stored === 1 ? '' : 's'}` : '') +
      (skipped.length
        ? `; kept existing ${skipped.map((p) => `'${p.name}'`).join(', ')} (use --overwrite to replace)`
        : ''),
  );
  return 0;
}

async function passphrase(ctx: Ctx, confirm: boolean): Promise<string> {
  if (ctx.values['passphrase-stdin']) {
    return readSecret(ctx.io);
  }
  if (!ctx.io.stdin.isTTY) {
    throw new CliError(
      'usage',
      'a passphrase is needed for the secrets: pass it on stdin with --passphrase-stdin, or run in a terminal',
    );
  }
  const first = await readSecret(ctx.io, 'Passphrase: ');
  if (confirm) {
    const again = await readSecret(ctx.io, 'Passphrase again: ');
    if (again !== first) throw new CliError('usage', 'the passphrases differ');
  }
  if (confirm && first.length < 8)
    throw new CliError('usage', 'use a passphrase of at least 8 characters');
  return first;
}
