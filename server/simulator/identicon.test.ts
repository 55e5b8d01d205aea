import { crc32, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import type { GitLabGroup, GitLabUser } from '../gitlab/wire.ts';
import { IDENTICON_SIZE, identiconPng } from './identicon.ts';
import { startSimulator, type GitLabSimulator } from './index.ts';
import { simJson } from './testing/http.ts';

/** Parses a PNG strictly: signature, chunk CRCs, IHDR, and the inflated scanlines. */
function decodePng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  const types: string[] = [];
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    expect(crc, `${type} CRC`).toBe(crc32(png.subarray(offset + 4, offset + 8 + length)) >>> 0);
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([...data.subarray(8)]).toEqual([8, 2, 0, 0, 0]); // 8-bit RGB, no interlace
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  expect(types[0]).toBe('IHDR');
  expect(types[types.length - 1]).toBe('IEND');
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) expect(raw[y * (width * 3 + 1)]).toBe(0);
  return { width, height, pixels: raw };
}

describe('identicon avatars', () => {
  let sim: GitLabSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ live: false, clock: new ManualClock(), projects: 2, days: 1 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('are valid, deterministic, two-coloured PNGs that differ by key', () => {
    const a = identiconPng('user:1001');
    const { width, height, pixels } = decodePng(a);
    expect([width, height]).toEqual([IDENTICON_SIZE, IDENTICON_SIZE]);
    const colours = new Set<string>();
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = y * (width * 3 + 1) + 1 + x * 3;
        colours.add(`${pixels[o]},${pixels[o + 1]},${pixels[o + 2]}`);
      }
    }
    expect(colours.size).toBe(2);
    expect(identiconPng('user:1001')).toEqual(a);
    expect(identiconPng('user:1002')).not.toEqual(a);
  });

  it('are served without a token at the avatar_url GitLab gives', async () => {
    const user = await simJson<GitLabUser>(sim, '/user');
    const res = await fetch(user.avatar_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const body = Buffer.from(await res.arrayBuffer());
    decodePng(body);
    expect(body).toEqual(identiconPng(`user:${user.id}`));

    const group = await simJson<GitLabGroup>(sim, '/groups/acme?with_projects=false');
    const groupRes = await fetch(group.avatar_url!);
    expect(groupRes.headers.get('content-type')).toBe('image/png');
    decodePng(Buffer.from(await groupRes.arrayBuffer()));

    const missing = await fetch(`${sim.url}/uploads/-/system/user/avatar/999999/avatar.png`);
    expect(missing.status).toBe(404);
  });
});
