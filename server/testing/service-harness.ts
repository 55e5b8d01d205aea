import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  composeService,
  type RunningService,
  type ServiceConfig,
  type ServiceEdges,
} from '../compose.ts';
import { gitlabConnection } from '../gitlab/connect.ts';
import { silentLogger } from '../platform/logger.ts';
import { startSimulator, type GitLabSimulator, type SimulatorOptions } from '../simulator/index.ts';

/** A service wired to a fresh GitLab simulator on loopback, for integration tests. */
export interface Harness {
  simulator: GitLabSimulator;
  service: RunningService;
  dataDir: string;
  /** GET/POST helper returning status and parsed JSON. */
  api(
    pathAndQuery: string,
    init?: RequestInit,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests index into arbitrary JSON
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /**
   * Stops the service and starts it again on the same data dir and simulator (a warm start from the
   * stored history); resolves once its first cycle and the fetches it started are done.
   */
  restart(): Promise<Harness>;
  close(): Promise<void>;
}

/** How a harness is started. */
export interface HarnessOptions {
  simulator?: SimulatorOptions;
  /** Edges to replace (clock, timing, version, env). */
  edges?: Partial<ServiceEdges>;
  /** Configuration to replace (`publicUrls` with a secret store in `edges` for LAN mode). */
  config?: Partial<ServiceConfig>;
  token?: string;
}

/** Starts simulator + service; the poller runs one full load before this resolves. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const simulator = await startSimulator({ live: false, ...options.simulator });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ps-test-'));
  return composeOn(simulator, dataDir, options);
}

async function composeOn(
  simulator: GitLabSimulator,
  dataDir: string,
  options: HarnessOptions,
): Promise<Harness> {
  const connection = gitlabConnection({
    baseUrl: simulator.url,
    token: options.token ?? simulator.token,
    group: simulator.groupPath,
    logger: silentLogger,
    retries: 1,
  });
  // The same composition root as `serve`, on the simulator and a temp data dir.
  const service = await composeService(
    {
      host: '127.0.0.1',
      port: 0,
      gitlabUrl: simulator.url,
      group: simulator.groupPath,
      since: '7d',
      demo: false,
      dataDir,
      ...options.config,
    },
    {
      logger: silentLogger,
      env: {},
      // Tests drive cycles themselves; the background loop waits long between them.
      timing: { fastIntervalMs: 60_000, slowIntervalMs: 60_000 },
      connection,
      ...options.edges,
    },
  );
  // Until the first cycle ended: a warm start is loaded from disk before it asked GitLab anything.
  for (
    let i = 0;
    i < 200 &&
    (!service.poller.isLoaded || service.poller.status.last_updated === null) &&
    service.poller.status.state !== 'degraded';
    i++
  ) {
    await new Promise((r) => setTimeout(r, 25));
  }
  await service.poller.detailsSettled();
  // The pipeline history reads jobs in the background; let it finish so faults a test injects
  // meet the requests the test makes.
  await service.groupHealth.idle();
  return {
    simulator,
    service,
    dataDir,
    async api(pathAndQuery, init) {
      const res = await fetch(`${service.url}${pathAndQuery}`, init);
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON (images): keep the text.
      }
      return { status: res.status, body, headers: res.headers };
    },
    async restart() {
      await service.stop();
      return composeOn(simulator, dataDir, options);
    },
    async close() {
      await service.stop();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
