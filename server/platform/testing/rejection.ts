import { expect } from 'vitest';

/**
 * The error `promise` rejects with, after checking that it is a `type` (the test fails when the
 * promise resolves or rejects with something else), so a test can assert on its fields.
 */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any error class, whatever its constructor takes
  type: abstract new (...args: any[]) => E,
): Promise<E> {
  const outcome = await promise.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected a ${type.name}, got ${String(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}
