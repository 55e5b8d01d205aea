import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ManualClock } from '../../platform/clock.ts';
import { createApp } from '../../http/app.ts';
import { createLogger } from '../../platform/logger.ts';
import type { SecretStore } from '../../platform/secret-store.ts';
import type { AiConfig } from '../config.ts';
import { aiRoutes } from '../routes.ts';
import { createAiService, type AiService, type AiServiceDeps } from '../ai-service.ts';
import { AnalysisStore } from '../store/analysis-store.ts';
import type { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import { failedPipelineGitLab, FAKE_PROJECT } from './failed-pipeline-scenario.ts';

/** The AI routes on a real loopback server, over a fake GitLab and a temp data dir. */
export interface AiHarness {
  base: string;
  service: AiService;
  /** The analysis store the service was given (in memory unless `persistStore`). */
  store: AnalysisStore;
  gitlab: FakeGitLab;
  dataDir: string;
  clock: ManualClock;
  /** Everything the service logged (JSON lines). */
  logs: () => string;
  post(path: string, body: unknown): Promise<Response>;
  put(path: string, body: unknown): Promise<Response>;
  get(path: string): Promise<Response>;
  del(path: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the harness; `config` defaults to the offline provider. The analysis store lives in
 * memory unless `persistStore` puts it in `dataDir/analyses.db` (for tests that read the disk or
 * restart the service).
 */
export async function startAiHarness(
  options: {
    config?: AiConfig;
    secretStore?: SecretStore;
    persistStore?: boolean;
    /** The failed tests the JUnit reports name, by pipeline and job. */
    failedTests?: AiServiceDeps['failedTests'];
  } = {},
): Promise<AiHarness> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ai-routes-'));
  const gitlab = failedPipelineGitLab();
  const clock = new ManualClock();
  let logText = '';
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _enc, done) {
        logText += String(chunk);
        done();
      },
    }),
  });
  const store = AnalysisStore.open(
    options.persistStore ? path.join(dataDir, 'analyses.db') : ':memory:',
    logger,
  );
  const service = createAiService({
    gitlab,
    store,
    logger,
    clock,
    config: { maxRetries: 0, timeoutMs: 5000, ...options.config },
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
    ...(options.failedTests ? { failedTests: options.failedTests } : {}),
    projectName: (id) => (id === FAKE_PROJECT.id ? FAKE_PROJECT.name : undefined),
  });
  const app = createApp({
    logger,
    version: { version: 'test', gitCommit: 'test', buildDate: '2026-11-21' },
    routes: [aiRoutes(service)],
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const send = (method: string) => (p: string, body?: unknown) =>
    fetch(`${base}${p}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  return {
    base,
    service,
    store,
    gitlab,
    dataDir,
    clock,
    logs: () => logText,
    post: send('POST'),
    put: send('PUT'),
    get: (p) => fetch(`${base}${p}`),
    del: send('DELETE'),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One Server-Sent Event. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a whole SSE response into events. */
export async function readSse(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** The analyse body for a job of the fake GitLab. */
export const jobBody = (jobId = 9001, extra: Record<string, unknown> = {}) => ({
  projectId: FAKE_PROJECT.id,
  pipelineId: jobId === 8990 ? 290 : 300,
  jobId,
  jobName: 'test:unit',
  stage: 'test',
  ...extra,
});
