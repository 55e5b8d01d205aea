/**
 * Reading Node's network failures: fetch (undici) wraps the system error (ECONNREFUSED, ENOTFOUND,
 * a TLS failure) in a TypeError's cause, sometimes inside an AggregateError. A leaf module, so the
 * managed-identity flow can use it without loading openid-client.
 */

/** The first system or undici error code in an error's cause chain. */
export function networkCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(E[A-Z]+|UND_ERR_\w+|ERR_TLS\w*|\w*CERT\w*|ERR_SSL\w*)$/.test(code)
    ) {
      return code;
    }
    const errors = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = networkCode(errors[0]);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True for codes that mean the server did not answer in time (rather than refused). */
export function isTimeoutCode(code: string): boolean {
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT' || code === 'UND_ERR_HEADERS_TIMEOUT'
  );
}
