import { MemorySecretStore } from '../platform/testing/memory-secret-store.ts';
import { startHarness, type Harness, type HarnessOptions } from './service-harness.ts';

/** The public URL a LAN-mode harness serves under (`.test` never resolves: RFC 2606). */
export const LAN_PUBLIC_URL = 'http://ci-summary.example.test';

/** A harness in LAN mode, with the access token its clients must send. */
export interface LanHarness extends Harness {
  /** The generated access token (Bearer, or the Basic-auth password). */
  accessToken: string;
}

/**
 * Starts the service on the simulator in LAN mode, as `serve --public-url` does: a public URL, so
 * every feed and API route asks for the access token, kept in an in-memory secret store.
 */
export async function startLanHarness(options: HarnessOptions = {}): Promise<LanHarness> {
  const harness = await startHarness({
    ...options,
    config: { publicUrls: [LAN_PUBLIC_URL], ...options.config },
    edges: { secretStore: new MemorySecretStore(), ...options.edges },
  });
  return Object.assign(harness, { accessToken: harness.service.exposure.accessToken!.token });
}

/** An `Authorization: Basic` value for `user` and `password` (RFC 7617). */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
