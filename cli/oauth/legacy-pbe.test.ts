import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bmpPassword,
  decryptLegacyPbe,
  passwordCandidates,
  pkcs12Kdf,
  rc2CbcDecrypt,
  rc2DecryptBlock,
  rc2ExpandKey,
} from './legacy-pbe.ts';

const hex = (s: string) => Buffer.from(s.replace(/[\s:]/g, ''), 'hex');

describe('RC2 (RFC 2268)', () => {
  // RFC 2268 section 5 test vectors: key, effective key bits, plaintext, ciphertext.
  const vectors: [string, number, string, string][] = [
    ['0000000000000000', 63, '0000000000000000', 'ebb773f993278eff'],
    ['ffffffffffffffff', 64, 'ffffffffffffffff', '278b27e42e2f0d49'],
    ['3000000000000000', 64, '1000000000000001', '30649edf9be7d2c2'],
    ['88', 64, '0000000000000000', '61a8a244adacccf0'],
    ['88bca90e90875a', 64, '0000000000000000', '6ccf4308974c267f'],
    ['88bca90e90875a7f0f79c384627bafb2', 64, '0000000000000000', '1a807d272bbe5db1'],
    ['88bca90e90875a7f0f79c384627bafb2', 128, '0000000000000000', '2269552ab0f85ca6'],
    [
      '88bca90e90875a7f0f79c384627bafb216f80a6f85920584c42fceb0be255daf1e',
      129,
      '0000000000000000',
      '5b78d3a43dfff1f1',
    ],
  ];
  it.each(vectors)('key %s, %i effective bits decrypts to the RFC plaintext', (key, bits, p, c) => {
    const out = Buffer.alloc(8);
    rc2DecryptBlock(rc2ExpandKey(hex(key), bits), hex(c), out);
    expect(out.toString('hex')).toBe(p);
  });

  it.each([
    ['rc2-40-cbc', '0102030405', 40],
    ['rc2-cbc', '00112233445566778899aabbccddeeff', 128],
  ] as const)('CBC decrypts what `openssl enc -%s` encrypted', (cipher, key, bits) => {
    const plain = randomBytes(100);
    const iv = randomBytes(8);
    // OpenSSL 3 keeps RC2 in its legacy provider; `enc` adds PKCS#5 padding.
    const out = execFileSync(
      'openssl',
      [
        'enc',
        '-provider',
        'legacy',
        '-provider',
        'default',
        `-${cipher}`,
        '-K',
        key,
        '-iv',
        iv.toString('hex'),
      ],
      { input: plain },
    );
    const decrypted = rc2CbcDecrypt(hex(key), bits, iv, out);
    expect(decrypted.subarray(0, 100)).toEqual(plain);
    expect([...decrypted.subarray(100)]).toEqual([4, 4, 4, 4]);
  });
});

describe('PKCS#12 key derivation (RFC 7292 Appendix B.2)', () => {
  it('derives the published SHA-1 vectors (keys, IV, MAC key)', () => {
    // The "smeg"/"queeg" vectors that OpenSSL and Bouncy Castle test their PKCS#12 KDF with
    // (re-derived here with `openssl kdf … -kdfopt digest:SHA1 PKCS12KDF`).
    const smeg = bmpPassword('smeg');
    const queeg = bmpPassword('queeg');
    expect(pkcs12Kdf(smeg, hex('0A58CF64530D823F'), 1, 1, 24)).toEqual(
      hex('8AAAE6297B6CB04642AB5B077851284EB7128F1A2A7FBCA3'),
    );
    expect(pkcs12Kdf(smeg, hex('0A58CF64530D823F'), 1, 2, 8)).toEqual(hex('79993DFE048D3B76'));
    expect(pkcs12Kdf(queeg, hex('05DEC959ACFF72F7'), 1000, 1, 24)).toEqual(
      hex('ED2034E36328830FF09DF1E1A07DD357185DAC0D4F9EB3D4'),
    );
    expect(pkcs12Kdf(smeg, hex('3D83C0E4546AC140'), 1, 3, 20)).toEqual(
      hex('8D967D88F6CAA9D714800AB3D48051D63F73A312'),
    );
  });

  it('matches OpenSSL for a non-ASCII password, outputs longer than one hash, SHA-256/512', () => {
    // Expected values from OpenSSL 3.0: `openssl kdf -keylen N -kdfopt hexpass:<BMPString>
    // -kdfopt hexsalt:… -kdfopt iter:… -kdfopt id:… -kdfopt digest:… PKCS12KDF`.
    const pw = bmpPassword('pässwörd€');
    expect(pw.toString('hex')).toBe('007000e400730073007700f60072006420ac0000');
    expect(pkcs12Kdf(pw, hex('0102030405060708'), 2048, 1, 45)).toEqual(
      hex(
        'F4DB7E0CD7BE91A4477FD36A6C826A630DB9BF53A11F9A70F46FAE7171AFA2F7FCEBE5D7B572AA56BFEB10BD6D',
      ),
    );
    expect(
      pkcs12Kdf(pw, hex('0102030405060708090a'), 3, 3, 100, { name: 'sha512', u: 64, v: 128 }),
    ).toEqual(
      hex(
        'CEEF1C52650B7B359348FCE606FFBBB7CFE23766959A8155A82D49C6CE8F064D03F649A9CD7E1FE83385168201' +
          '5B2AD9E010FFDD06381D63EA547BCDB8181A780C07E94E67DD88688587C853190C10546D49959E0E76FA3A6D' +
          'C0CB34FF5F6FA7E93E6514',
      ),
    );
    expect(
      pkcs12Kdf(Buffer.alloc(0), hex('0102030405060708'), 5, 3, 32, {
        name: 'sha256',
        u: 32,
        v: 64,
      }),
    ).toEqual(hex('C2A2BDACF17CD3F0FC4152602FAB7A2378F243265E5A103F5C05AD712743CD25'));
  });

  it('encodes passwords as BMPStrings, with the encodings other writers used as fallbacks', () => {
    expect(bmpPassword('').toString('hex')).toBe('0000');
    // A character beyond the BMP is two UTF-16 code units, as OpenSSL 3 and Windows write it.
    expect(bmpPassword('a😀').toString('hex')).toBe('0061d83dde000000');
    expect(passwordCandidates('pw').map((b) => b.toString('hex'))).toEqual(['007000770000']);
    expect(passwordCandidates('').map((b) => b.toString('hex'))).toEqual(['0000', '']);
    // OpenSSL before 1.1.0 widened each UTF-8 byte: ä is c3 a4.
    expect(passwordCandidates('ä').map((b) => b.toString('hex'))).toEqual([
      '00e40000',
      '00c300a40000',
    ]);
  });
});

describe('decryptLegacyPbe', () => {
  const params = { salt: hex('0102030405060708'), iterations: 1 };
  it('refuses schemes it does not know and ciphertext that is not whole blocks', () => {
    expect(() =>
      decryptLegacyPbe('1.2.840.113549.1.12.1.1', params, bmpPassword('x'), hex('00')),
    ).toThrow(expect.objectContaining({ code: 'unsupported' }));
    expect(() =>
      decryptLegacyPbe('1.2.840.113549.1.12.1.3', params, bmpPassword('x'), Buffer.alloc(12)),
    ).toThrow(expect.objectContaining({ code: 'corrupt' }));
  });

  it('reports bad padding (a key that does not fit) instead of returning garbage', () => {
    for (const oid of ['1.2.840.113549.1.12.1.6', '1.2.840.113549.1.12.1.3']) {
      expect(() => decryptLegacyPbe(oid, params, bmpPassword('x'), Buffer.alloc(64, 7))).toThrow(
        expect.objectContaining({ code: 'corrupt', message: expect.stringMatching(/bad padding/) }),
      );
    }
  });
});
