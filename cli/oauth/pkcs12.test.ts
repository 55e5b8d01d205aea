// readPkcs12 on files made by the openssl CLI: OpenSSL 3's PBES2/AES default, and the legacy
// schemes (`openssl pkcs12 -export -legacy`, the OpenSSL 1.x default: RC2-40 certificates, 3DES
// key, SHA-1 MAC; see the openssl-pkcs12(1) manual for -legacy, -certpbe and -keypbe).
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPkcs12 } from './pkcs12.ts';
import { makeAppCertificate, makeAppPkcs12 } from './testing/test-pki.ts';

let dir: string;
let certPem: string;
let keyPem: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pkcs12-'));
  ({ certPem } = makeAppCertificate(dir, 'app'));
  keyPem = createPrivateKey(await readFile(path.join(dir, 'app.key')))
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PKCS#12 file of the test certificate and key, made by `openssl pkcs12 -export` with `args`. */
async function pfx(file: string, password: string, args: string[]) {
  const out = makeAppPkcs12(dir, 'app', password, args, path.join(dir, file));
  return { data: await readFile(out), file: out };
}

const passin = (password: string) => ['-legacy', '-passin', `pass:${password}`];

/** What `openssl pkcs12 -info` says protects each part (on stderr): checks the file is as meant. */
function schemes(file: string, password: string): string {
  const run = spawnSync(
    'openssl',
    ['pkcs12', '-info', '-noout', '-in', file, ...passin(password)],
    {
      encoding: 'utf8',
    },
  );
  return run.stderr;
}

describe('readPkcs12', () => {
  it('opens an OpenSSL 3 default (PBES2, AES-256-CBC) file as before', async () => {
    const { data, file } = await pfx('modern.pfx', 'pfx pass', []);
    await expect(readPkcs12(data, 'pfx pass', file)).resolves.toEqual({ certPem, keyPem });
    await expect(readPkcs12(data, 'wrong', file)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/cannot open it .*a wrong password/),
    });
  });

  it.each([
    [
      '-legacy (RC2-40 certificates, 3DES key)',
      'legacy.p12',
      ['-legacy'],
      /40BitRC2[\s\S]*3-KeyTripleDES/,
    ],
    [
      'RC2-128 certificates, 3DES key',
      'rc2-128.p12',
      ['-legacy', '-certpbe', 'PBE-SHA1-RC2-128', '-keypbe', 'PBE-SHA1-3DES'],
      /128BitRC2[\s\S]*3-KeyTripleDES/,
    ],
    [
      '2-key 3DES certificates, RC2-40 key',
      '2des.p12',
      ['-legacy', '-certpbe', 'PBE-SHA1-2DES', '-keypbe', 'PBE-SHA1-RC2-40'],
      /2-KeyTripleDES[\s\S]*40BitRC2/,
    ],
    [
      'AES certificates, 3DES key, SHA-256 MAC (OpenSSL 3 with -keypbe PBE-SHA1-3DES)',
      'mixed.p12',
      ['-keypbe', 'PBE-SHA1-3DES'],
      /MAC: sha256[\s\S]*PBES2, PBKDF2, AES-256-CBC[\s\S]*3-KeyTripleDES/,
    ],
  ])(
    'opens a legacy file: %s, with the certificate and key openssl reads',
    async (_, name, args, used) => {
      const { data, file } = await pfx(name, 'pw', args);
      expect(schemes(file, 'pw')).toMatch(used);
      // The same certificate and key as `openssl pkcs12 -legacy -in FILE -nodes` prints.
      const dump = execFileSync('openssl', ['pkcs12', '-in', file, '-nodes', ...passin('pw')], {
        encoding: 'utf8',
      });
      const opened = await readPkcs12(data, 'pw', file);
      expect(opened).toEqual({ certPem, keyPem });
      expect(dump).toContain(certPem.trim());
      expect(dump).toContain(keyPem.trim());
    },
  );

  it('opens a legacy file with a non-ASCII password (BMPString), and with an empty one', async () => {
    const unicode = await pfx('unicode.p12', 'pässwörd €😀', ['-legacy']);
    await expect(readPkcs12(unicode.data, 'pässwörd €😀', unicode.file)).resolves.toEqual({
      certPem,
      keyPem,
    });
    await expect(readPkcs12(unicode.data, 'passwörd €😀', unicode.file)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/wrong password/),
    });
    const empty = await pfx('empty.p12', '', ['-legacy']);
    await expect(readPkcs12(empty.data, '', empty.file)).resolves.toEqual({ certPem, keyPem });
  });

  it('opens a legacy file whose non-ASCII password was widened byte by byte (OpenSSL < 1.1.0)', async () => {
    // Handing OpenSSL 3 the UTF-8 bytes of "pässwörd" as Latin-1 characters makes it write the
    // BMPString old OpenSSL wrote for "pässwörd": each UTF-8 byte as one 16-bit unit.
    const mangled = Buffer.from('pässwörd', 'utf8').toString('latin1');
    const { data, file } = await pfx('old-openssl.p12', mangled, ['-legacy']);
    await expect(readPkcs12(data, 'pässwörd', file)).resolves.toEqual({ certPem, keyPem });
  });

  it('refuses a legacy file with a wrong password clearly, never with garbage', async () => {
    const { data, file } = await pfx('wrong.p12', 'right', ['-legacy']);
    const refused = readPkcs12(data, 'wrong', file);
    await expect(refused).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(
        /wrong\.p12: wrong password, or a damaged file \(its integrity check fails\).*--certificate-password-stdin/,
      ),
    });
  });

  it.each([
    ['an OpenSSL 3 default (PBES2)', []],
    ['a legacy', ['-legacy']],
  ])(
    'refuses %s file asking for more iterations than any exporter writes, before deriving keys',
    async (_, args) => {
      // openssl-pkcs12(1): -iter sets the key derivation iteration count (OpenSSL's default 2048).
      const { data, file } = await pfx('slow.pfx', 'pw', [...args, '-iter', '1000001']);
      await expect(readPkcs12(data, 'pw', file)).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringMatching(/asks for 1,000,001 iterations of password derivation/),
      });
    },
  );

  it('refuses a legacy file whose encrypted content was altered (MAC mismatch)', async () => {
    const { data, file } = await pfx('tampered.p12', 'pw', ['-legacy']);
    const tampered = Buffer.from(data);
    const middle = Math.floor(tampered.length / 2);
    tampered[middle] = tampered[middle]! ^ 0x01;
    await expect(readPkcs12(tampered, 'pw', file)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/integrity check fails/),
    });
  });
});
