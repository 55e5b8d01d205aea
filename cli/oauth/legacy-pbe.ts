/**
 * The password-based encryption of legacy PKCS#12 files — what `openssl pkcs12 -export -legacy`,
 * OpenSSL 1.x by default and many Windows/Azure exports write: the SHA-1 key derivation of RFC 7292
 * Appendix B.2 feeding RC2-CBC (RFC 2268) or 3DES-CBC, and the HMAC-SHA1 integrity MAC keyed the
 * same way. Node's OpenSSL 3 has 3DES but no RC2 (it lives in the legacy provider), so RC2 is here.
 * Pure functions over bytes; cli/oauth/pkcs12.ts walks the ASN.1 and calls them.
 */
import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Why a legacy PBE step failed, as the caller sorts it. */
export type LegacyPbeErrorCode = 'unsupported' | 'wrong_password' | 'corrupt';

/** A failure of this module; `code` tells a wrong password from a broken or unknown file. */
export class LegacyPbeError extends Error {
  override readonly name = 'LegacyPbeError';
  constructor(
    readonly code: LegacyPbeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The PKCS#12 PBE schemes of RFC 7292 Appendix C that OpenSSL and Windows emit (the RC4 ones are
 * left out: nothing current writes them), by OID: cipher, key bytes and RC2 effective key bits.
 */
const SCHEMES: Record<string, { cipher: 'rc2' | '3des'; keyBytes: number; name: string }> = {
  '1.2.840.113549.1.12.1.3': {
    cipher: '3des',
    keyBytes: 24,
    name: 'pbeWithSHAAnd3-KeyTripleDES-CBC',
  },
  '1.2.840.113549.1.12.1.4': {
    cipher: '3des',
    keyBytes: 16,
    name: 'pbeWithSHAAnd2-KeyTripleDES-CBC',
  },
  '1.2.840.113549.1.12.1.5': { cipher: 'rc2', keyBytes: 16, name: 'pbeWithSHAAnd128BitRC2-CBC' },
  '1.2.840.113549.1.12.1.6': { cipher: 'rc2', keyBytes: 5, name: 'pbewithSHAAnd40BitRC2-CBC' },
};

/** True when `oid` is one of the legacy PKCS#12 PBE schemes this module decrypts. */
export function isLegacyPbe(oid: string): boolean {
  return Object.hasOwn(SCHEMES, oid);
}

/** Hash output (u) and block (v) sizes in bytes, RFC 7292 Appendix B.2's two parameters. */
const HASHES: Record<string, { name: string; u: number; v: number }> = {
  '1.3.14.3.2.26': { name: 'sha1', u: 20, v: 64 },
  '2.16.840.1.101.3.4.2.4': { name: 'sha224', u: 28, v: 64 },
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', u: 32, v: 64 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', u: 48, v: 128 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', u: 64, v: 128 },
};

/**
 * `password` as RFC 7292 Appendix B.1 wants it: a BMPString (UTF-16 big-endian code units, which is
 * also how OpenSSL 3 and Windows turn UTF-8/UTF-16 text into it) followed by two zero bytes.
 */
export function bmpPassword(password: string): Buffer {
  const out = Buffer.alloc(password.length * 2 + 2);
  for (let i = 0; i < password.length; i++) out.writeUInt16BE(password.charCodeAt(i), i * 2);
  return out;
}

/**
 * The password encodings worth trying, most likely first: the BMPString of B.1; for an empty
 * password also no bytes at all (a "NULL password", which OpenSSL's reader tries too); for a
 * non-ASCII one also each UTF-8 byte widened to 16 bits, as OpenSSL before 1.1.0 wrote it.
 */
export function passwordCandidates(password: string): Buffer[] {
  const candidates = [bmpPassword(password)];
  if (password === '') candidates.push(Buffer.alloc(0));
  if ([...password].some((c) => c.charCodeAt(0) > 0x7f)) {
    candidates.push(bmpPassword(Buffer.from(password, 'utf8').toString('latin1')));
  }
  return candidates;
}

/**
 * RFC 7292 Appendix B.2: `length` pseudorandom bytes from the password (already a BMPString with
 * its terminator, see bmpPassword), the salt and the iteration count; `id` 1 makes a key, 2 an IV,
 * 3 a MAC key. `hash` is a Node digest name with its output size u and block size v.
 */
export function pkcs12Kdf(
  passwordBmp: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  id: 1 | 2 | 3,
  length: number,
  hash: { name: string; u: number; v: number } = HASHES['1.3.14.3.2.26']!,
): Buffer {
  const { name, u, v } = hash;
  // Steps 1-4: D is v copies of the ID; S and P are the salt and password repeated to a multiple
  // of v bytes (empty when empty); I = S || P.
  const D = Buffer.alloc(v, id);
  const stretch = (bytes: Uint8Array) => {
    const out = Buffer.alloc(v * Math.ceil(bytes.length / v));
    for (let i = 0; i < out.length; i++) out[i] = bytes[i % bytes.length]!;
    return out;
  };
  const I = Buffer.concat([stretch(salt), stretch(passwordBmp)]);
  const out: Buffer[] = [];
  // Steps 5-6: c = ceil(n/u) rounds; A_i is the r-fold hash of D || I; each v-byte block I_j of I
  // becomes (I_j + B + 1) mod 2^(8v), B being A_i repeated to v bytes.
  for (let produced = 0; produced < length; produced += u) {
    let A = createHash(name).update(D).update(I).digest();
    for (let r = 1; r < iterations; r++) A = createHash(name).update(A).digest();
    out.push(A);
    if (produced + u >= length) break;
    const B = Buffer.alloc(v);
    for (let i = 0; i < v; i++) B[i] = A[i % u]!;
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = I[j + k]! + B[k]! + carry;
        I[j + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  // Step 7: the first n bytes of A_1 || A_2 || …
  return Buffer.concat(out).subarray(0, length);
}

/**
 * Checks the MAC of a password-integrity PKCS#12 file (RFC 7292 section 4 MacData: HMAC keyed with
 * the B.2 ID-3 key of the hash's output size, over the authSafe content) with each password
 * encoding of passwordCandidates; returns the encoding that matches, which then decrypts the bags.
 */
export function verifyPkcs12Mac(
  mac: { digestOid: string; digest: Uint8Array; salt: Uint8Array; iterations: number },
  content: Uint8Array,
  password: string,
): Buffer {
  const hash = HASHES[mac.digestOid];
  if (!hash) throw new LegacyPbeError('unsupported', `unsupported MAC digest ${mac.digestOid}`);
  for (const candidate of passwordCandidates(password)) {
    const key = pkcs12Kdf(candidate, mac.salt, mac.iterations, 3, hash.u, hash);
    const expected = createHmac(hash.name, key).update(content).digest();
    if (expected.length === mac.digest.length && timingSafeEqual(expected, mac.digest)) {
      return candidate;
    }
  }
  throw new LegacyPbeError('wrong_password', 'wrong password: the MAC does not match');
}

/**
 * Decrypts `data` protected with one of the legacy schemes (`oid`, pkcs-12PbeParams salt and
 * iterations of RFC 7292 Appendix C) under `passwordBmp` (an encoding verifyPkcs12Mac accepted).
 */
export function decryptLegacyPbe(
  oid: string,
  params: { salt: Uint8Array; iterations: number },
  passwordBmp: Uint8Array,
  data: Uint8Array,
): Buffer {
  const scheme = SCHEMES[oid];
  if (!scheme) throw new LegacyPbeError('unsupported', `unsupported encryption ${oid}`);
  if (data.length === 0 || data.length % 8 !== 0) {
    throw new LegacyPbeError('corrupt', `${scheme.name}: ciphertext is not whole 8-byte blocks`);
  }
  const key = pkcs12Kdf(passwordBmp, params.salt, params.iterations, 1, scheme.keyBytes);
  const iv = pkcs12Kdf(passwordBmp, params.salt, params.iterations, 2, 8);
  let plain: Buffer;
  if (scheme.cipher === '3des') {
    // Two-key 3DES is three-key 3DES with K3 = K1.
    const key24 = scheme.keyBytes === 24 ? key : Buffer.concat([key, key.subarray(0, 8)]);
    const decipher = createDecipheriv('des-ede3-cbc', key24, iv).setAutoPadding(false);
    plain = Buffer.concat([decipher.update(data), decipher.final()]);
  } else {
    plain = rc2CbcDecrypt(key, scheme.keyBytes * 8, iv, data);
  }
  // PKCS#5 padding (RFC 8018 section 6.1.1): 1-8 bytes, each holding the count.
  const pad = plain[plain.length - 1]!;
  if (pad < 1 || pad > 8 || !plain.subarray(plain.length - pad).every((b) => b === pad)) {
    throw new LegacyPbeError('corrupt', `${scheme.name}: bad padding after decryption`);
  }
  return plain.subarray(0, plain.length - pad);
}

/** PITABLE of RFC 2268 section 2, a permutation of 0..255 based on the digits of pi. */
const PITABLE = Buffer.from(
  'd978f9c419ddb5ed28e9fd794aa0d89dc67e37832b76538e624c6488448bfba2' +
    '179a59f587b34f1361456d8d09817d32bd8f40eb86b77b0bf09521225c6b4e82' +
    '54d66593ce60b21c7356c014a78cf1dc1275ca1f3bbee4d1423dd430a33cb626' +
    '6fbf0eda4669075727f21d9bbc944303f811c7f690ef3ee706c3d52fc8661ed7' +
    '08e8eade8052eef784aa72ac354d6a2a961ad2715a1549744b9fd05e0418a4ec' +
    'c2e0416e0f51cbcc2491af50a1f47039997c3a8523b8b47afc02365b25559731' +
    '2d5dfa98e38a92ae05df2910676cbac9d300e6cfe19ea82c6316013f58e289a9' +
    '0d38341bab33ffb0bb480c5fb9b1cd2ec5f3db47e5a59c770aa62068fe7fc1ad',
  'hex',
);

/** RFC 2268 section 2 key expansion: 64 16-bit words from `key` with `effectiveBits` bits (T1). */
export function rc2ExpandKey(key: Uint8Array, effectiveBits: number): Uint16Array {
  if (key.length < 1 || key.length > 128 || effectiveBits < 1 || effectiveBits > 1024) {
    throw new LegacyPbeError('unsupported', 'RC2 key of 1-128 bytes and 1-1024 effective bits');
  }
  const L = new Uint8Array(128);
  L.set(key);
  const T = key.length;
  const T8 = Math.ceil(effectiveBits / 8);
  const TM = 0xff >> (8 * T8 - effectiveBits);
  for (let i = T; i < 128; i++) L[i] = PITABLE[(L[i - 1]! + L[i - T]!) & 0xff]!;
  L[128 - T8] = PITABLE[L[128 - T8]! & TM]!;
  for (let i = 127 - T8; i >= 0; i--) L[i] = PITABLE[L[i + 1]! ^ L[i + T8]!]!;
  const K = new Uint16Array(64);
  for (let i = 0; i < 64; i++) K[i] = L[2 * i]! | (L[2 * i + 1]! << 8);
  return K;
}

/** RFC 2268 section 4: decrypts one 8-byte block of `src` at `offset` into `dst` at `offset`. */
export function rc2DecryptBlock(
  K: Uint16Array,
  src: Uint8Array,
  dst: Uint8Array,
  offset = 0,
): void {
  const R = [0, 1, 2, 3].map((i) => src[offset + 2 * i]! | (src[offset + 2 * i + 1]! << 8));
  const shifts = [1, 2, 3, 5];
  let j = 63;
  // R-MIXING (section 4.1): undo the rotation, then the additions, words 3 down to 0.
  const rmix = () => {
    for (let i = 3; i >= 0; i--) {
      const s = shifts[i]!;
      const r = R[i]!;
      const a = R[(i + 3) & 3]!;
      const b = R[(i + 2) & 3]!;
      const c = R[(i + 1) & 3]!;
      const rotated = ((r >> s) | (r << (16 - s))) & 0xffff;
      R[i] = (rotated - K[j]! - (a & b) - (~a & c)) & 0xffff;
      j--;
    }
  };
  // R-MASHING (section 4.2).
  const rmash = () => {
    for (let i = 3; i >= 0; i--) R[i] = (R[i]! - K[R[(i + 3) & 3]! & 63]!) & 0xffff;
  };
  // Section 4.3: five r-mixing rounds, an r-mashing, six r-mixing, an r-mashing, five r-mixing.
  for (let n = 0; n < 5; n++) rmix();
  rmash();
  for (let n = 0; n < 6; n++) rmix();
  rmash();
  for (let n = 0; n < 5; n++) rmix();
  for (let i = 0; i < 4; i++) {
    dst[offset + 2 * i] = R[i]! & 0xff;
    dst[offset + 2 * i + 1] = R[i]! >> 8;
  }
}

/** RC2 in CBC mode, decrypting whole blocks (padding left in place for the caller). */
export function rc2CbcDecrypt(
  key: Uint8Array,
  effectiveBits: number,
  iv: Uint8Array,
  data: Uint8Array,
): Buffer {
  const K = rc2ExpandKey(key, effectiveBits);
  const out = Buffer.alloc(data.length);
  for (let off = 0; off < data.length; off += 8) {
    rc2DecryptBlock(K, data, out, off);
    const prev = off === 0 ? iv : data.subarray(off - 8, off);
    for (let i = 0; i < 8; i++) out[off + i] = out[off + i]! ^ prev[i]!;
  }
  return out;
}
