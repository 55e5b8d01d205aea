/**
 * The secret-store port: where API keys, the GitLab token, OAuth client secrets and the token-cache
 * key live. The real implementation (os-secret-store.ts) uses the OS keychain through
 * @napi-rs/keyring and falls back to a 0600 file when no keychain is reachable. Tests use
 * `MemorySecretStore` (testing/memory-secret-store.ts).
 */
import { CodedError } from './errors.ts';
export interface SecretStore {
  /** Human-readable name of the backend, e.g. "Secret Service" or "file (~/.config/…)". */
  readonly backend: string;
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** Resolves to true when something was deleted. */
  delete(account: string): Promise<boolean>;
}

/** Account names used across the product, so the CLI, the service and the tray agree. */
export const SECRET_ACCOUNTS = {
  /** The GitLab token for a GitLab base URL. */
  gitlabToken: (gitlabUrl: string) => `gitlab-token:${new URL(gitlabUrl).origin}`,
  /** The API key of the configured AI provider. */
  aiApiKey: (provider: string) => `ai-api-key:${provider}`,
  /** An OAuth client secret of a get-token profile. */
  clientSecret: (profile: string) => `client-secret:${profile}`,
  /** The certificate and private key (PEM) a get-token profile signs client assertions with. */
  clientCertificate: (profile: string) => `client-certificate:${profile}`,
  /** The access token a non-loopback (LAN) service asks every client for. */
  serviceAccessToken: 'service-access-token',
  /** The AES-256-GCM key of the token cache. */
  tokenCacheKey: 'token-cache-key',
} as const;

/** What went wrong in a secret store; the CLI maps each code to an exit status in one table. */
export type SecretStoreErrorCode =
  | 'secret_store_unavailable' // the OS keychain cannot be reached, unlocked or used
  | 'secret_store_damaged' // the secret file is not readable JSON
  | 'secret_store_io' // the secret file cannot be read or written
  | 'invalid_store_mode'; // a --store flag or PIPELINE_SUMMARY_SECRET_STORE value we do not know

/** A secret-store failure: `message` says what failed and the way out, and never holds a secret. */
export class SecretStoreError extends CodedError<SecretStoreErrorCode> {
  override readonly name = 'SecretStoreError';
}
