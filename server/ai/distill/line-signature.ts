/** Signature for near-duplicate folding: numbers, hex and durations vary, the message does not. */
export function lineSignature(line: string): string {
  return line
    .replace(/0x[0-9a-f]+/gi, '#')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}
