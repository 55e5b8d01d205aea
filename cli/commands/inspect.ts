/**
 * `pipeline-summary inspect [-p PROFILE | TOKEN | -]`: decodes a JWT access token — a profile's
 * cached one, or one given as an argument or on stdin — and shows its header, claims, times and
 * time left. It decodes only: it never verifies a signature and never calls a token valid. It never
 * prints a refresh token.
 */
import {
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { helpRequest, type Command, type CommandEdges } from '../command.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { readStdin, type CliIo } from '../io.ts';
import { readCachedToken } from '../oauth/engine.ts';
import { decodeJwt, formatSeconds, relativeTime, type DecodedJwt } from '../oauth/jwt.ts';

const HELP = `Usage: pipeline-summary inspect [-p PROFILE] [-s "A B"] [-o text|json]
       pipeline-summary inspect TOKEN | -

Decodes a JWT access token and shows its header, claims, issue/expiry times and time left.
Without TOKEN it reads the profile's cached token (no network). '-' reads the token from stdin.
The signature is NOT verified: use this to look, not to decide whether to trust a token.
`;

const TIME_CLAIMS: [string, string][] = [
  ['iat', 'Issued at'],
  ['nbf', 'Not before'],
  ['auth_time', 'Signed in at'],
  ['exp', 'Expires at'],
];

/** inspect's options, read from its flags. */
export interface InspectCommandOptions {
  /** A token given as an argument, or '-' for stdin; else the profile's cached one is read. */
  token: string | undefined;
  profile: string | undefined;
  scope: string | undefined;
  format: 'text' | 'json';
  store: SecretStoreMode | undefined;
}

/** The inspect command. */
export const inspectCommand: Command<InspectCommandOptions> = {
  program: 'pipeline-summary inspect',
  help: HELP,
  parse(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        allowPositionals: true,
        options: {
          profile: { type: 'string', short: 'p' },
          scope: { type: 'string', short: 's' },
          output: { type: 'string', short: 'o' },
          store: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      },
      'pipeline-summary inspect',
    );
    if (values.help) return helpRequest();
    const format = values.output ?? 'text';
    if (format !== 'text' && format !== 'json') {
      throw new CliError('usage', `--output must be text or json, not '${format}'`);
    }
    if (positionals.length > 1 || (positionals.length === 1 && values.profile)) {
      throw new CliError('usage', 'give either -p PROFILE or one TOKEN, not both');
    }
    return {
      token: positionals[0],
      profile: values.profile,
      scope: values.scope,
      format,
      store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
    };
  },
  run: runInspect,
};

/** Decodes and shows the token; resolves to the exit code. */
async function runInspect(options: InspectCommandOptions, { io }: CommandEdges): Promise<number> {
  let token: string;
  let source: string;
  let cachedExpiry: number | undefined;
  if (options.token !== undefined) {
    token = options.token === '-' ? await readTokenFromStdin(io) : options.token;
    source = 'the given token';
  } else {
    const profile = options.profile ?? 'default';
    const { entry } = await readCachedToken({
      profile,
      scope: options.scope,
      store: options.store,
    });
    if (!entry) {
      throw new CliError(
        'general',
        `no cached token for profile '${profile}'${options.scope ? ` with scopes '${options.scope}'` : ''}; run 'get-token -p ${profile}' first`,
      );
    }
    token = entry.accessToken;
    cachedExpiry = entry.expiresAt;
    source = `the cached token of profile '${profile}' (scopes: ${entry.scope || 'none'})`;
  }
  const now = Date.now();
  let decoded: DecodedJwt;
  try {
    decoded = decodeJwt(token);
  } catch (err) {
    if (cachedExpiry === undefined) throw err;
    // An opaque cached token: say what the cache knows instead.
    const left = cachedExpiry - now;
    io.stdout.write(
      `${source} is opaque (not a JWT); only the issuer can read it.\n` +
        `Expires at: ${new Date(cachedExpiry).toISOString()} (${relativeTime(cachedExpiry, now)})\n` +
        `Time left:  ${left > 0 ? formatSeconds(Math.floor(left / 1000)) : 'none (expired)'}\n`,
    );
    return 0;
  }
  const times: Record<string, string> = {};
  // RFC 7519 §4.1.4: exp (like iat, nbf) is a NumericDate; a token that says "tomorrow" is shown
  // for what it is rather than as having no exp at all.
  const invalidTimes: Record<string, string> = {};
  for (const [claim] of TIME_CLAIMS) {
    const v = decoded.claims[claim];
    if (typeof v === 'number') times[claim] = new Date(v * 1000).toISOString();
    else if (v !== undefined) invalidTimes[claim] = `not a number: ${JSON.stringify(v)}`;
  }
  const exp = typeof decoded.claims.exp === 'number' ? decoded.claims.exp * 1000 : cachedExpiry;
  const secondsLeft = exp === undefined ? undefined : Math.max(0, Math.floor((exp - now) / 1000));
  if (options.format === 'json') {
    io.stdout.write(
      JSON.stringify(
        {
          signature_verified: false,
          header: decoded.header,
          claims: decoded.claims,
          times,
          invalid_times: invalidTimes,
          expires_in: secondsLeft ?? null,
          expired: exp === undefined ? null : exp <= now,
        },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const lines = [
    `Inspecting ${source}.`,
    'Signature: NOT verified (inspect decodes only; it does not tell whether to trust the token)',
    '',
    'Header:',
    indent(JSON.stringify(decoded.header, null, 2)),
    '',
    'Claims:',
    indent(JSON.stringify(decoded.claims, null, 2)),
    '',
  ];
  for (const [claim, label] of TIME_CLAIMS) {
    const v = decoded.claims[claim];
    if (typeof v === 'number') {
      lines.push(
        `${(label + ':').padEnd(14)}${new Date(v * 1000).toISOString()} (${relativeTime(v * 1000, now)})`,
      );
    } else if (invalidTimes[claim]) {
      lines.push(`${(label + ':').padEnd(14)}${invalidTimes[claim]}`);
    }
  }
  const badExp = invalidTimes.exp ? `exp is ${invalidTimes.exp}` : undefined;
  // A cached token's expiry is known from the token response even when its exp is unreadable.
  const fromCache = badExp && exp !== undefined ? ` (${badExp}; expiry from the cache)` : '';
  if (exp === undefined)
    lines.push(`${'Time left:'.padEnd(14)}unknown (${badExp ?? 'no exp claim'})`);
  else if (exp <= now)
    lines.push(`${'Time left:'.padEnd(14)}none — expired ${relativeTime(exp, now)}${fromCache}`);
  else lines.push(`${'Time left:'.padEnd(14)}${formatSeconds(secondsLeft!)}${fromCache}`);
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

async function readTokenFromStdin(io: CliIo): Promise<string> {
  const text = await readStdin(io);
  const token = text.trim().split('\n').pop()?.trim() ?? '';
  if (!token) throw new CliError('usage', 'no token on standard input');
  return token;
}
