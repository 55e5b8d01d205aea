import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCb } from 'node:crypto';
import { promisify } from 'node:util';
import { TokenError } from './errors.ts';
import { validateProfile, type Profile } from './profiles.ts';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const FORMAT = 'pipeline-summary-profiles';
// scrypt cost: ~0.1 s and 32 MiB here; a stolen export costs an attacker the same per guess.
const KDF = { N: 2 ** 15, r: 8, p: 1 } as const;

/** Client secrets encrypted with a key derived from a passphrase (scrypt → AES-256-GCM). */
interface EncryptedSecrets {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  ciphertext: string;
}

/** The export file: profiles without secrets, plus the secrets encrypted when asked for. */
export interface ProfileBundle {
  format: typeof FORMAT;
  version: 1;
  exportedAt: string;
  profiles: Record<string, Omit<Profile, 'name'>>;
  secrets?: EncryptedSecrets;
}

/** Builds an export; `secrets` (client secrets by profile) are encrypted with `passphrase`. */
export async function exportProfiles(
  profiles: Profile[],
  secrets?: { values: Record<string, string>; passphrase: string },
): Promise<ProfileBundle> {
  const bundle: ProfileBundle = {
    format: FORMAT,
    version: 1,
    exportedAt: new Date().toISOString(),
    profiles: {},
  };
  for (const { name, ...rest } of profiles) bundle.profiles[name] = rest;
  if (secrets) {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const key = await deriveKey(secrets.passphrase, salt, KDF);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(FORMAT));
    const ciphertext = Buffer.concat([
      cipher.update(JSON.stringify(secrets.values), 'utf8'),
      cipher.final(),
    ]);
    bundle.secrets = {
      kdf: 'scrypt',
      ...KDF,
      salt: salt.toString('base64'),
      cipher: 'aes-256-gcm',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  }
  return bundle;
}

/** Reads an export: validated profiles, and whether it carries encrypted secrets. */
export function parseProfileBundle(
  text: string,
  source: string,
): {
  profiles: Profile[];
  bundle: ProfileBundle;
} {
  let bundle: ProfileBundle;
  try {
    bundle = JSON.parse(text) as ProfileBundle;
  } catch (err) {
    throw new TokenError('usage', `${source} is not JSON`, { cause: err });
  }
  if (bundle?.format !== FORMAT || typeof bundle.profiles !== 'object' || !bundle.profiles) {
    throw new TokenError('usage', `${source} is not a 'pipeline-summary profile export' file`);
  }
  const profiles = Object.entries(bundle.profiles).map(([name, raw]) =>
    validateProfile({ ...raw, name }, `${source}: profile '${name}'`),
  );
  return { profiles, bundle };
}

/** Decrypts an export's client secrets; a wrong passphrase is an auth_failed error. */
export async function decryptSecrets(
  bundle: ProfileBundle,
  passphrase: string,
): Promise<Record<string, string>> {
  const s = bundle.secrets;
  if (!s) return {};
  try {
    const key = await deriveKey(passphrase, Buffer.from(s.salt, 'base64'), s);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
    decipher.setAAD(Buffer.from(FORMAT));
    decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(s.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
    return JSON.parse(plain) as Record<string, string>;
  } catch (err) {
    throw new TokenError(
      'auth_failed',
      'cannot decrypt the secrets in this export: wrong passphrase (or a damaged file)',
      { cause: err },
    );
  }
}

function deriveKey(
  passphrase: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
  if (cost.N > 2 ** 20 || cost.r > 16 || cost.p > 4) {
    throw new TokenError('usage', 'the export asks for an unreasonable scrypt cost; refusing');
  }
  return scrypt(passphrase, salt, 32, { ...cost, maxmem: 256 * cost.N * cost.r * cost.p + 1024 });
}
