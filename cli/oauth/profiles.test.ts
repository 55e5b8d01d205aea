import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportProfiles, decryptSecrets, parseProfileBundle } from './profile-transfer.ts';
import {
  getProfile,
  issuerOf,
  loadProfiles,
  removeProfile,
  saveProfiles,
  validateProfile,
} from './profiles.ts';
import { tempHome } from './testing/fixtures.ts';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
});
afterEach(async () => {
  await cleanup();
});

describe('profiles', () => {
  it('round-trips through profiles.json, scopes as a sorted set', async () => {
    const p = validateProfile(
      {
        name: 'ci',
        issuer: 'https://id.example.com',
        clientId: 'c',
        scopes: 'b a b',
        flow: 'device-code',
        redirectPort: '8400',
      },
      'test',
    );
    expect(p).toEqual({
      name: 'ci',
      issuer: 'https://id.example.com',
      clientId: 'c',
      scopes: ['a', 'b'],
      flow: 'device-code',
      redirectPort: 8400,
    });
    await saveProfiles(home, [p]);
    expect(await getProfile(home, 'ci')).toEqual(p);
    expect(await removeProfile(home, 'ci')).toBe(true);
    expect(await removeProfile(home, 'ci')).toBe(false);
    await expect(getProfile(home, 'ci')).rejects.toMatchObject({ code: 'profile_not_found' });
  });

  it('names Entra ID issuers from a tenant', () => {
    const p = validateProfile({ name: 'e', tenant: 'contoso.onmicrosoft.com', clientId: 'c' }, 't');
    expect(issuerOf(p)).toBe('https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0');
  });

  it.each([
    [{ name: 'x', clientId: 'c' }, /issuer is required/],
    [{ name: 'x', issuer: 'https://i' }, /clientId is required/],
    [{ name: 'x y', issuer: 'https://i', clientId: 'c' }, /name must be/],
    [{ name: 'x', issuer: 'http://example.com', clientId: 'c' }, /must use https/],
    [{ name: 'x', issuer: 'https://i', clientId: 'c', flow: 'implicit' }, /flow must be one of/],
    [
      { name: 'x', issuer: 'https://i', clientId: 'c', redirectPort: 70000 },
      /redirectPort must be 1–65535/,
    ],
  ])('rejects %j', (raw, message) => {
    expect(() => validateProfile(raw, 'test')).toThrow(message);
  });

  it('explains a damaged profiles file', async () => {
    await writeFile(path.join(home, 'profiles.json'), '{"profiles": ');
    await expect(loadProfiles(home)).rejects.toMatchObject({
      code: 'general',
      message: expect.stringContaining('not valid JSON'),
    });
  });
});

describe('profile export', () => {
  const p = validateProfile({ name: 'svc', issuer: 'https://i.example', clientId: 'c' }, 't');

  it('encrypts secrets with the passphrase; a wrong one is refused', async () => {
    const bundle = await exportProfiles([p], {
      values: { svc: 'top-secret' },
      passphrase: 'long passphrase',
    });
    const text = JSON.stringify(bundle);
    expect(text).not.toContain('top-secret');
    const { profiles, bundle: parsed } = parseProfileBundle(text, 'x.json');
    expect(profiles).toEqual([p]);
    expect(await decryptSecrets(parsed, 'long passphrase')).toEqual({ svc: 'top-secret' });
    await expect(decryptSecrets(parsed, 'wrong')).rejects.toMatchObject({ code: 'auth_failed' });
  });

  it('rejects files that are not exports', () => {
    expect(() => parseProfileBundle('{"profiles":{}}', 'x.json')).toThrow(
      /not a 'pipeline-summary profile export' file/,
    );
  });
});
