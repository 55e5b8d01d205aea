import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SECRET_ACCOUNTS } from '../../../server/platform/secret-store.ts';
import { saveProfiles, validateProfile, type Profile } from '../profiles.ts';
import { FileSecretStore } from '../../../server/platform/os-secret-store.ts';

/** A fresh config root in the temp dir; `cleanup` removes it. */
export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'get-token-test-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

/** The file secret store of a config root (what `--store file` uses). */
export function fileStore(home: string): FileSecretStore {
  return new FileSecretStore(path.join(home, 'secrets'));
}

/** Saves a profile (and its client secret in the file store when given). */
export async function addProfile(
  home: string,
  profile: Partial<Profile> & Pick<Profile, 'name' | 'clientId'>,
  clientSecret?: string,
): Promise<Profile> {
  const valid = validateProfile({ scopes: [], ...profile }, 'test');
  await saveProfiles(home, [valid]);
  if (clientSecret !== undefined) {
    await fileStore(home).set(SECRET_ACCOUNTS.clientSecret(profile.name), clientSecret);
  }
  return valid;
}

/** A free TCP port on 127.0.0.1 (closed again before returning). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never answers: an issuer that hangs. */
export async function startBlackhole(): Promise<{
  url: string;
  /** Settles when the first client has connected (its request is then in flight). */
  connected: Promise<void>;
  close: () => Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let onConnect!: () => void;
  const connected = new Promise<void>((resolve) => (onConnect = resolve));
  const server = net.createServer((socket) => {
    onConnect();
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Decodes a JWT's payload without verifying it (test assertions only). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
