/**
 * The secret-store port: where API keys, the GitLab token, OAuth client secrets and the token-cache
 * key live. The real implementation (cli/token/) uses the OS keychain through @napi-rs/keyring and
 * falls back to a 0600 file when no keychain is reachable. Tests use `MemorySecretStore`.
 */
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
  /** The AES-256-GCM key of the token cache. */
  tokenCacheKey: 'token-cache-key',
} as const;

/** An in-memory SecretStore: the test double for the keychain and the file store. */
export class MemorySecretStore implements SecretStore {
  readonly backend = 'memory';
  private readonly secrets = new Map<string, string>();
  async get(account: string): Promise<string | undefined> {
    return this.secrets.get(account);
  }
  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}
