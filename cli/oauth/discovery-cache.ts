/**
 * OpenID provider metadata cached per issuer, so a fresh token costs one request (the token
 * endpoint) instead of two. Metadata is public, so the file is plain JSON; it is still written
 * atomically (temp + rename) because parallel get-token processes share it.
 */
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../../server/platform/files.ts';

/** How long discovered metadata is reused before it is fetched again. */
export const DISCOVERY_TTL_MS = 24 * 60 * 60_000;

interface DiscoveryFile {
  version: 1;
  issuers: Record<string, { fetchedAt: number; metadata: Record<string, unknown> }>;
}

/** The discovery cache of one config root. */
export class DiscoveryCache {
  private readonly file: string;
  constructor(home: string) {
    this.file = path.join(home, 'discovery-cache.json');
  }

  /** The metadata of `issuer` when fetched less than the TTL before `now`. */
  async get(issuer: string, now: number): Promise<Record<string, unknown> | undefined> {
    const entry = (await this.read()).issuers[issuer];
    if (!entry || now - entry.fetchedAt >= DISCOVERY_TTL_MS || now < entry.fetchedAt) {
      return undefined;
    }
    return entry.metadata;
  }

  /** Remembers `metadata` for `issuer`; a failure to write only costs the next run a request. */
  async set(issuer: string, metadata: Record<string, unknown>, now: number): Promise<void> {
    try {
      const data = await this.read();
      data.issuers[issuer] = { fetchedAt: now, metadata };
      await writeFileAtomic(this.file, JSON.stringify(data) + '\n', 0o600);
    } catch {
      // A read-only or missing config root: discovery simply runs again next time.
    }
  }

  private async read(): Promise<DiscoveryFile> {
    try {
      const parsed = JSON.parse((await readTextIfExists(this.file)) ?? '') as DiscoveryFile;
      if (parsed?.version === 1 && typeof parsed.issuers === 'object' && parsed.issuers) {
        return parsed;
      }
    } catch {
      // absent or damaged: start afresh
    }
    return { version: 1, issuers: {} };
  }
}
