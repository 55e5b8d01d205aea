import { crc32, deflateSync } from 'node:zlib';
import { hashSeed } from './random.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CELLS = 5;
const CELL_PX = 12;
const MARGIN_PX = 8;
/** Width and height of every identicon, in pixels. */
export const IDENTICON_SIZE = CELLS * CELL_PX + 2 * MARGIN_PX;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** A GitHub-style 5×5 mirrored identicon for `key`, as a real RGB PNG (node:zlib only). */
export function identiconPng(key: string): Buffer {
  const hash = hashSeed('identicon', key);
  const colour = hslToRgb(hash % 360, 0.55, 0.5);
  const background: [number, number, number] = [240, 240, 240];
  const cells: boolean[] = [];
  const bits = hashSeed('cells', key);
  for (let row = 0; row < CELLS; row++) {
    for (let col = 0; col < CELLS; col++) {
      const mirrored = col < 3 ? col : CELLS - 1 - col;
      cells.push(((bits >>> (row * 3 + mirrored)) & 1) === 1);
    }
  }
  if (!cells.includes(true)) cells[12] = true; // never a blank avatar
  const stride = IDENTICON_SIZE * 3 + 1;
  const raw = Buffer.alloc(stride * IDENTICON_SIZE);
  for (let y = 0; y < IDENTICON_SIZE; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < IDENTICON_SIZE; x++) {
      const cx = Math.floor((x - MARGIN_PX) / CELL_PX);
      const cy = Math.floor((y - MARGIN_PX) / CELL_PX);
      const inside = cx >= 0 && cy >= 0 && cx < CELLS && cy < CELLS;
      const [r, g, b] = inside && cells[cy * CELLS + cx] ? colour : background;
      const o = y * stride + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(IDENTICON_SIZE, 0);
  ihdr.writeUInt32BE(IDENTICON_SIZE, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
