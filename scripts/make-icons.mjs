// Draws the app and tray icons (three pipeline stages on a rounded square) as PNGs, with no image
// library: a signed-distance rasteriser and node:zlib. Run once when the artwork changes.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel((x + 0.5) / size, (y + 0.5) / size, 1 / size);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const cover = (d, px) => Math.min(1, Math.max(0, 0.5 - d / px));
function roundedSquare(x, y) {
  const qx = Math.abs(x - 0.5) - 0.5 + 0.06 + 0.18;
  const qy = Math.abs(y - 0.5) - 0.5 + 0.06 + 0.18;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - 0.18;
}
const dots = [
  [0.27, 0.62],
  [0.5, 0.38],
  [0.73, 0.62],
];
function glyph(x, y) {
  let d = Infinity;
  for (const [cx, cy] of dots) d = Math.min(d, Math.hypot(x - cx, y - cy) - 0.085);
  for (let i = 0; i < 2; i++) {
    const [ax, ay] = dots[i];
    const [bx, by] = dots[i + 1];
    const t = Math.max(
      0,
      Math.min(
        1,
        ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2),
      ),
    );
    d = Math.min(d, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)) - 0.03);
  }
  return d;
}
const app = (x, y, px) => {
  const bg = cover(roundedSquare(x, y), px);
  const fg = cover(glyph(x, y), px);
  const mix = (a, b) => Math.round(a * (1 - fg) + b * fg);
  return [mix(31, 255), mix(111, 255), mix(235, 255), Math.round(255 * bg)];
};
// Tray: the glyph in the menu bar's ink (black on light menus, white on dark ones) with a health
// badge bottom right: green all good, red failing, blue running, grey degraded (main/tray-icons.ts).
const BADGE = { cx: 0.73, cy: 0.73, r: 0.25, gap: 0.07 };
const HEALTH = {
  ok: { light: [26, 127, 55], dark: [63, 185, 80] },
  failing: { light: [207, 34, 46], dark: [248, 81, 73] },
  running: { light: [9, 105, 218], dark: [88, 166, 255] },
  degraded: { light: [110, 119, 129], dark: [139, 148, 158] },
};
function trayIcon(health, theme) {
  const ink = theme === 'dark' ? [255, 255, 255] : [0, 0, 0];
  const badge = HEALTH[health][theme];
  return (x, y, px) => {
    const d = Math.hypot(x - BADGE.cx, y - BADGE.cy) - BADGE.r;
    const inBadge = cover(d, px);
    const inGlyph = cover(glyph(x, y), px) * cover(-(d - BADGE.gap), px);
    const a = Math.max(inBadge, inGlyph);
    if (a === 0) return [0, 0, 0, 0];
    const c = inBadge >= inGlyph ? badge : ink;
    return [...c, Math.round(255 * a)];
  };
}
writeFileSync('assets/icon.png', png(512, app));
for (const health of Object.keys(HEALTH)) {
  for (const theme of ['light', 'dark']) {
    writeFileSync(`assets/tray-${health}-${theme}.png`, png(16, trayIcon(health, theme)));
    writeFileSync(`assets/tray-${health}-${theme}@2x.png`, png(32, trayIcon(health, theme)));
  }
}
writeFileSync('assets/favicon.png', png(64, app));
