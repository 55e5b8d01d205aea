import type { SecretStore } from '../secret-store.ts';

/** An in-memory SecretStore for tests: nothing touches the keychain or the disk. */
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
