import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeService } from './compose.ts';
import { silentLogger } from './platform/logger.ts';
import { MemorySecretStore } from './platform/testing/memory-secret-store.ts';

const dirs: string[] = [];
function dataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-compose-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const base = { host: '127.0.0.1', port: 0, gitlabUrl: 'http://127.0.0.1:9', since: '7d' };

describe('composeService', () => {
  it('fails with the not_configured code when the group or the token is missing', async () => {
    const edges = { logger: silentLogger, env: {}, secretStore: new MemorySecretStore() };
    await expect(
      composeService({ ...base, group: undefined, demo: false, dataDir: dataDir() }, edges),
    ).rejects.toMatchObject({ code: 'not_configured', message: /No group to watch/ });
    await expect(
      composeService({ ...base, group: 'acme', demo: false, dataDir: dataDir() }, edges),
    ).rejects.toMatchObject({ code: 'not_configured', message: /No GitLab token/ });
  });

  it('serves the demo and stop() closes the server, the poller and the simulator', async () => {
    const service = await composeService(
      { ...base, group: undefined, demo: true, dataDir: dataDir() },
      { logger: silentLogger, env: {} },
    );
    const health = await fetch(`${service.url}/api/health`);
    expect(health.status).toBe(200);
    const provider = (await (await fetch(`${service.url}/api/ai/provider`)).json()) as {
      provider: string;
    };
    expect(provider.provider).toBe('offline');
    await service.stop();
    await service.stop(); // twice is harmless
    await expect(fetch(`${service.url}/api/health`)).rejects.toThrow();
  });

  it('closes what it opened when listening fails', async () => {
    const first = await composeService(
      { ...base, group: undefined, demo: true, dataDir: dataDir() },
      { logger: silentLogger, env: {} },
    );
    try {
      await expect(
        composeService(
          { ...base, port: first.port, group: undefined, demo: true, dataDir: dataDir() },
          { logger: silentLogger, env: {} },
        ),
      ).rejects.toMatchObject({ code: 'bad_request', message: /already in use/ });
    } finally {
      await first.stop();
    }
  });
});
