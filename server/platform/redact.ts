/**
 * Removes a secret from text that came back from elsewhere (a provider echoing the request, an
 * error quoting a header), in every form we can recognise: as is and in any letter case, URL- and
 * JSON-escaped, base64/base64url and hex encoded, and the tail a provider shows when it masks the
 * rest ("sk-…cdef"). Forms shorter than 8 characters are left alone (they would redact words).
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 8) return text;
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ]);
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escapeRegExp(form), 'gi'), '[redacted]');
  }
  // Masked echoes ("sk-proj-****…cdef") give away the end; a tail of 8+ characters is the key's.
  for (let n = Math.min(secret.length - 1, 16); n >= 8; n--) {
    out = out.replace(
      new RegExp(`[*.…x]{3,}${escapeRegExp(secret.slice(-n))}`, 'gi'),
      '[redacted]',
    );
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
