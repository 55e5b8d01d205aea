// The plain-JavaScript AES-256-GCM opener against node:crypto (random keys, IVs, lengths, AAD)
// and against the GCM specification's AES-256 test cases (McGrew & Viega, "The Galois/Counter
// Mode of Operation", Appendix B, test cases 13, 14 and 16).
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openAes256Gcm } from './aes-gcm.ts';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

function seal(key: Buffer, iv: Buffer, plain: Buffer, aad: Buffer) {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { ciphertext, tag: cipher.getAuthTag() };
}

describe('openAes256Gcm', () => {
  it('opens what node:crypto seals, for every length from 0 to 200 bytes and a 20 KB cache', () => {
    for (const length of [...Array.from({ length: 201 }, (_, i) => i), 20_000]) {
      const key = randomBytes(32);
      const iv = randomBytes(12);
      const aad = randomBytes(length % 37);
      const plain = randomBytes(length);
      const { ciphertext, tag } = seal(key, iv, plain, aad);
      const opened = openAes256Gcm(key, iv, ciphertext, tag, aad);
      expect(opened && Buffer.from(opened).equals(plain), `length ${length}`).toBe(true);
    }
  });

  it('refuses a changed ciphertext, tag, AAD or key (so the cache is never misread)', () => {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const aad = Buffer.from('pipeline-summary-token-cache/v1');
    const { ciphertext, tag } = seal(key, iv, Buffer.from('{"version":1,"entries":{}}'), aad);
    const flip = (b: Buffer, i: number) => {
      const copy = Buffer.from(b);
      copy[i] = copy[i]! ^ 1;
      return copy;
    };
    expect(openAes256Gcm(key, iv, flip(ciphertext, 3), tag, aad)).toBeUndefined();
    expect(openAes256Gcm(key, iv, ciphertext, flip(tag, 15), aad)).toBeUndefined();
    expect(openAes256Gcm(key, iv, ciphertext, tag, flip(aad, 0))).toBeUndefined();
    expect(openAes256Gcm(flip(key, 31), iv, ciphertext, tag, aad)).toBeUndefined();
    expect(openAes256Gcm(key, flip(iv, 11), ciphertext, tag, aad)).toBeUndefined();
    // Sizes it does not open: the caller falls back to node:crypto.
    expect(openAes256Gcm(key.subarray(0, 16), iv, ciphertext, tag, aad)).toBeUndefined();
    expect(openAes256Gcm(key, randomBytes(16), ciphertext, tag, aad)).toBeUndefined();
  });

  it("matches the GCM specification's AES-256 test cases", () => {
    const key = hex('feffe9928665731c6d6a8f9467308308 feffe9928665731c6d6a8f9467308308');
    // Test case 13: empty everything.
    expect(
      openAes256Gcm(
        Buffer.alloc(32),
        Buffer.alloc(12),
        Buffer.alloc(0),
        hex('530f8afbc74536b9a963b4f1c4cb738b'),
        Buffer.alloc(0),
      ),
    ).toEqual(new Uint8Array(0));
    // Test case 14: one zero block.
    expect(
      Buffer.from(
        openAes256Gcm(
          Buffer.alloc(32),
          Buffer.alloc(12),
          hex('cea7403d4d606b6e074ec5d3baf39d18'),
          hex('d0d1c8a799996bf0265b98b5d48ab919'),
          Buffer.alloc(0),
        )!,
      ),
    ).toEqual(Buffer.alloc(16));
    // Test case 16: 60 bytes with 20 bytes of AAD.
    const plain = hex(
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
    );
    const opened = openAes256Gcm(
      key,
      hex('cafebabefacedbaddecaf888'),
      hex(
        '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
      ),
      hex('76fc6ece0f4e1768cddf8853bb2d551b'),
      hex('feedfacedeadbeeffeedfacedeadbeefabaddad2'),
    );
    expect(opened && Buffer.from(opened)).toEqual(plain);
  });
});
