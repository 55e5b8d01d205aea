import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { composeService, type RunningService } from '../../../server/compose.ts';
import type { FailuresResponse } from '../../../server/group-health/contract.ts';
import { gitlabConnection } from '../../../server/gitlab/connect.ts';
import { silentLogger } from '../../../server/platform/logger.ts';
import { SECRET_ACCOUNTS } from '../../../server/platform/secret-store.ts';
import { MemorySecretStore } from '../../../server/platform/testing/memory-secret-store.ts';
import type { PipelineDetails } from '../../../server/contract.ts';
import { startHarness, type Harness } from '../../../server/testing/service-harness.ts';

/** A job of the demo data a test explains or asks the MCP server about. */
export interface DemoJob {
  projectId: number;
  projectPath: string;
  pipelineId: number;
  jobId: number;
  name: string;
  webUrl: string;
}

/** `serve --demo` on loopback (port 0, a non-live simulator), plus jobs of each kind to ask about. */
export interface DemoService {
  harness: Harness;
  url: string;
  /** A failed job of a failed pipeline. */
  failed: DemoJob;
  /** A job that passed, in the same pipeline. */
  passed: DemoJob;
  /**
   * The same service shared on the network (127.0.0.2, so it needs its access token) over the
   * same simulator: started on demand, closed with the rest.
   */
  shared(): Promise<{ url: string; token: string }>;
  close(): Promise<void>;
}

/** Starts the demo service and picks the jobs the tests use from its failures list. */
export async function startDemoService(): Promise<DemoService> {
  const harness = await startHarness();
  const failures = (await harness.api('/api/pipelines/failures?pageSize=20'))
    .body as FailuresResponse;
  // A failed pipeline whose pipeline also holds a passed job.
  for (const entry of failures.failures) {
    const p = entry.pipeline;
    const details = (await harness.api(`/api/pipelines/${p.project_id}/details/${p.pipeline_id}`))
      .body as PipelineDetails;
    const ok = details.jobs.find((j) => j.status === 'success');
    const bad = entry.failed_jobs[0];
    if (!ok || !bad) continue;
    const projectPath = new URL(p.web_url).pathname.replace(/^\/|\/-\/pipelines\/\d+$/g, '');
    const job = (id: number, name: string, webUrl: string): DemoJob => ({
      projectId: p.project_id,
      projectPath,
      pipelineId: p.pipeline_id,
      jobId: id,
      name,
      webUrl,
    });
    let shared: RunningService | undefined;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ps-shared-'));
    return {
      harness,
      url: harness.service.url,
      failed: job(bad.job_id, bad.name, bad.web_url),
      passed: job(ok.id, ok.name, ok.web_url ?? ''),
      async shared() {
        const secretStore = new MemorySecretStore();
        const token = 'shared-service-access-token';
        await secretStore.set(SECRET_ACCOUNTS.serviceAccessToken, token);
        const { simulator } = harness;
        // 127.0.0.2 is a non-loopback bind for the service's rules and routable on Linux's lo
        // (as in server/http/lan-mode.integration.test.ts).
        shared ??= await composeService(
          {
            host: '127.0.0.2',
            port: 0,
            gitlabUrl: simulator.url,
            group: simulator.groupPath,
            since: '7d',
            demo: false,
            dataDir,
          },
          {
            logger: silentLogger,
            env: {},
            secretStore,
            timing: { fastIntervalMs: 60_000, slowIntervalMs: 60_000 },
            connection: gitlabConnection({
              baseUrl: simulator.url,
              token: simulator.token,
              group: simulator.groupPath,
              logger: silentLogger,
            }),
          },
        );
        return { url: shared.url, token };
      },
      async close() {
        await shared?.stop();
        rmSync(dataDir, { recursive: true, force: true });
        await harness.close();
      },
    };
  }
  await harness.close();
  throw new Error('the demo data has no failed pipeline with a passed job');
}
