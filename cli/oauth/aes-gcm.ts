/**
 * AES-256-GCM decryption (NIST SP 800-38D over FIPS 197) in plain JavaScript, for the token
 * cache's cached path: loading node:crypto costs a cached get-token about a tenth of Node's whole
 * start-up, more than everything else it does (bench/token.bench.ts). It opens only what the
 * engine seals with node:crypto — a 256-bit key, a 96-bit IV, a 128-bit tag — and answers
 * undefined for anything else (the caller then uses node:crypto) or for a tag that does not match.
 * Checked against node:crypto on random inputs and NIST's test vectors (aes-gcm.test.ts).
 *
 * Table-driven AES is not constant-time; what it protects here is a cache whose key any process
 * of the same user can read from the secret store anyway, so cache-timing adds no attacker.
 */

let tables: { sbox: Uint8Array; t: Uint32Array[] } | undefined;

/** The S-box and the four round tables, computed once (FIPS 197 §5.1.1 and §5.2). */
function aesTables() {
  if (tables) return tables;
  const sbox = new Uint8Array(256);
  const rotl8 = (x: number, n: number) => ((x << n) | (x >>> (8 - n))) & 0xff;
  // Walk GF(2^8) with p = 3^k and q = 3^-k: q is p's inverse, then the affine map.
  let p = 1;
  let q = 1;
  do {
    p = (p ^ (p << 1) ^ (p & 0x80 ? 0x1b : 0)) & 0xff;
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    q &= 0xff;
    if (q & 0x80) q ^= 0x09;
    sbox[p] = q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63;
  } while (p !== 1);
  sbox[0] = 0x63;
  const t = [0, 1, 2, 3].map(() => new Uint32Array(256));
  for (let x = 0; x < 256; x++) {
    const s = sbox[x]!;
    const s2 = ((s << 1) ^ (s & 0x80 ? 0x1b : 0)) & 0xff;
    const word = ((s2 << 24) | (s << 16) | (s << 8) | (s2 ^ s)) >>> 0;
    for (let i = 0; i < 4; i++) t[i]![x] = ((word >>> (8 * i)) | (word << (32 - 8 * i))) >>> 0;
  }
  tables = { sbox, t };
  return tables;
}

/** The 60 round-key words of an AES-256 key (FIPS 197 §5.2). */
function expandKey(key: Uint8Array): Uint32Array {
  const { sbox } = aesTables();
  const w = new Uint32Array(60);
  for (let i = 0; i < 8; i++) {
    w[i] =
      ((key[4 * i]! << 24) | (key[4 * i + 1]! << 16) | (key[4 * i + 2]! << 8) | key[4 * i + 3]!) >>>
      0;
  }
  const sub = (x: number) =>
    ((sbox[x >>> 24]! << 24) |
      (sbox[(x >>> 16) & 0xff]! << 16) |
      (sbox[(x >>> 8) & 0xff]! << 8) |
      sbox[x & 0xff]!) >>>
    0;
  let rcon = 1;
  for (let i = 8; i < 60; i++) {
    let temp = w[i - 1]!;
    if (i % 8 === 0) {
      temp = (sub(((temp << 8) | (temp >>> 24)) >>> 0) ^ (rcon << 24)) >>> 0;
      rcon = ((rcon << 1) ^ (rcon & 0x80 ? 0x1b : 0)) & 0xff;
    } else if (i % 8 === 4) {
      temp = sub(temp);
    }
    w[i] = (w[i - 8]! ^ temp) >>> 0;
  }
  return w;
}

/** Encrypts one block (four big-endian words) in place with round keys `w` (14 rounds). */
function encryptBlock(w: Uint32Array, block: Uint32Array): void {
  const { sbox, t } = aesTables();
  const [t0, t1, t2, t3] = t as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  let s0 = block[0]! ^ w[0]!;
  let s1 = block[1]! ^ w[1]!;
  let s2 = block[2]! ^ w[2]!;
  let s3 = block[3]! ^ w[3]!;
  let k = 4;
  for (let round = 1; round < 14; round++, k += 4) {
    const a =
      t0[s0 >>> 24]! ^ t1[(s1 >>> 16) & 0xff]! ^ t2[(s2 >>> 8) & 0xff]! ^ t3[s3 & 0xff]! ^ w[k]!;
    const b =
      t0[s1 >>> 24]! ^
      t1[(s2 >>> 16) & 0xff]! ^
      t2[(s3 >>> 8) & 0xff]! ^
      t3[s0 & 0xff]! ^
      w[k + 1]!;
    const c =
      t0[s2 >>> 24]! ^
      t1[(s3 >>> 16) & 0xff]! ^
      t2[(s0 >>> 8) & 0xff]! ^
      t3[s1 & 0xff]! ^
      w[k + 2]!;
    const d =
      t0[s3 >>> 24]! ^
      t1[(s0 >>> 16) & 0xff]! ^
      t2[(s1 >>> 8) & 0xff]! ^
      t3[s2 & 0xff]! ^
      w[k + 3]!;
    s0 = a;
    s1 = b;
    s2 = c;
    s3 = d;
  }
  const last = (a: number, b: number, c: number, d: number, key: number) =>
    (((sbox[a >>> 24]! << 24) |
      (sbox[(b >>> 16) & 0xff]! << 16) |
      (sbox[(c >>> 8) & 0xff]! << 8) |
      sbox[d & 0xff]!) ^
      key) >>>
    0;
  block[0] = last(s0, s1, s2, s3, w[k]!);
  block[1] = last(s1, s2, s3, s0, w[k + 1]!);
  block[2] = last(s2, s3, s0, s1, w[k + 2]!);
  block[3] = last(s3, s0, s1, s2, w[k + 3]!);
}

/** One step Z·x in GF(2^128), GCM's bit order (SP 800-38D §6.3: a right shift, reduced by R). */
function timesX(z: Uint32Array): void {
  const carry = z[3]! & 1;
  z[3] = ((z[3]! >>> 1) | (z[2]! << 31)) >>> 0;
  z[2] = ((z[2]! >>> 1) | (z[1]! << 31)) >>> 0;
  z[1] = ((z[1]! >>> 1) | (z[0]! << 31)) >>> 0;
  z[0] = ((z[0]! >>> 1) ^ (carry ? 0xe1000000 : 0)) >>> 0;
}

/**
 * Multiplication by H four bits at a time (Shoup's method, as OpenSSL's gcm_gmult_4bit): a table
 * of the 16 products n·H, and the reduction of the four bits each step shifts out.
 */
class GhashKey {
  private readonly table: Uint32Array[] = [];
  private readonly rem = new Uint32Array(16);
  constructor(h: Uint32Array) {
    // n's most significant bit is x^0: 8 ↦ H, 4 ↦ H·x, 2 ↦ H·x², 1 ↦ H·x³.
    const powers = [h.slice()];
    for (let i = 1; i < 4; i++) {
      const next = powers[i - 1]!.slice();
      timesX(next);
      powers.push(next);
    }
    for (let n = 0; n < 16; n++) {
      const t = new Uint32Array(4);
      for (let bit = 0; bit < 4; bit++) {
        if (n & (8 >> bit)) for (let j = 0; j < 4; j++) t[j] = (t[j]! ^ powers[bit]![j]!) >>> 0;
      }
      this.table.push(t);
    }
    for (let b = 0; b < 16; b++) {
      const z = new Uint32Array([0, 0, 0, b]);
      for (let i = 0; i < 4; i++) timesX(z);
      this.rem[b] = z[0]!;
    }
  }
  /** Y ← Y·H in place. */
  multiply(y: Uint32Array): void {
    const { table, rem } = this;
    let z0 = 0;
    let z1 = 0;
    let z2 = 0;
    let z3 = 0;
    // Horner from the highest-degree nibble (the low nibble of byte 15) down to byte 0's high one.
    for (let k = 31; k >= 0; k--) {
      const nibble = (y[k >>> 3]! >>> (28 - 4 * (k & 7))) & 0x0f;
      const carry = z3 & 0x0f;
      z3 = (z3 >>> 4) | (z2 << 28);
      z2 = (z2 >>> 4) | (z1 << 28);
      z1 = (z1 >>> 4) | (z0 << 28);
      z0 = (z0 >>> 4) ^ rem[carry]!;
      const t = table[nibble]!;
      z0 ^= t[0]!;
      z1 ^= t[1]!;
      z2 ^= t[2]!;
      z3 ^= t[3]!;
    }
    y[0] = z0 >>> 0;
    y[1] = z1 >>> 0;
    y[2] = z2 >>> 0;
    y[3] = z3 >>> 0;
  }
}

/** Y ← (Y ⊕ each 16-byte block of `data`, zero-padded) · H (GHASH, SP 800-38D §6.4). */
function ghashUpdate(y: Uint32Array, h: GhashKey, data: Uint8Array): void {
  const block = new Uint8Array(16);
  for (let offset = 0; offset < data.length; offset += 16) {
    block.fill(0);
    block.set(data.subarray(offset, offset + 16));
    for (let j = 0; j < 4; j++) {
      y[j] =
        (y[j]! ^
          ((block[4 * j]! << 24) |
            (block[4 * j + 1]! << 16) |
            (block[4 * j + 2]! << 8) |
            block[4 * j + 3]!)) >>>
        0;
    }
    h.multiply(y);
  }
}

/**
 * The plaintext of AES-256-GCM `ciphertext` under `key` with a 96-bit `iv`, checked against the
 * 128-bit `tag` over `aad` and the ciphertext; undefined when the tag does not match or the
 * sizes are not these (then use node:crypto).
 */
export function openAes256Gcm(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  aad: Uint8Array,
): Uint8Array | undefined {
  if (key.length !== 32 || iv.length !== 12 || tag.length !== 16) return undefined;
  const w = expandKey(key);
  const hBlock = new Uint32Array(4);
  encryptBlock(w, hBlock);
  const h = new GhashKey(hBlock);
  // J0 = IV ‖ 0³¹1 for a 96-bit IV (§7.1); the first counter block for data is J0 + 1.
  const j0 = new Uint32Array([
    ((iv[0]! << 24) | (iv[1]! << 16) | (iv[2]! << 8) | iv[3]!) >>> 0,
    ((iv[4]! << 24) | (iv[5]! << 16) | (iv[6]! << 8) | iv[7]!) >>> 0,
    ((iv[8]! << 24) | (iv[9]! << 16) | (iv[10]! << 8) | iv[11]!) >>> 0,
    1,
  ]);
  // Authenticate first: nothing is decrypted for a forged or damaged cache.
  const y = new Uint32Array(4);
  ghashUpdate(y, h, aad);
  ghashUpdate(y, h, ciphertext);
  const bits = (n: number) => [Math.floor((n * 8) / 2 ** 32) >>> 0, (n * 8) >>> 0];
  const lengths = new Uint32Array([...bits(aad.length), ...bits(ciphertext.length)]);
  for (let j = 0; j < 4; j++) y[j] = (y[j]! ^ lengths[j]!) >>> 0;
  h.multiply(y);
  const mask = j0.slice();
  encryptBlock(w, mask);
  let diff = 0;
  for (let j = 0; j < 4; j++) {
    const expected = (y[j]! ^ mask[j]!) >>> 0;
    const given =
      ((tag[4 * j]! << 24) | (tag[4 * j + 1]! << 16) | (tag[4 * j + 2]! << 8) | tag[4 * j + 3]!) >>>
      0;
    diff |= expected ^ given;
  }
  if (diff !== 0) return undefined;
  const plain = new Uint8Array(ciphertext.length);
  const counter = j0.slice();
  const stream = new Uint32Array(4);
  for (let offset = 0; offset < ciphertext.length; offset += 16) {
    counter[3] = (counter[3]! + 1) >>> 0;
    stream.set(counter);
    encryptBlock(w, stream);
    for (let i = 0; i < 16 && offset + i < ciphertext.length; i++) {
      plain[offset + i] =
        ciphertext[offset + i]! ^ ((stream[i >>> 2]! >>> (24 - 8 * (i & 3))) & 0xff);
    }
  }
  return plain;
}
