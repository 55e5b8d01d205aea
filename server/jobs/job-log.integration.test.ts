import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import { failedJob } from '../gitlab/testing/wire-fixtures.ts';
import { JobLogReader, withCappedJobLogs } from '../gitlab/job-log-stream.ts';
import { serveTestApp } from '../http/testing/test-server.ts';
import { silentLogger } from '../platform/logger.ts';
import { jobRoutes } from './routes.ts';

const MiB = 1024 * 1024;
const LOG_MIB = 40;
const line = (n: number) => `${String(n).padStart(8, '0')} ${'é'.repeat(20)} step output\n`;

/** A finished job as GET /projects/:id/jobs/:job_id returns it (docs.gitlab.com/api/jobs/#get-a-single-job). */
const jobJson = (id: number) =>
  failedJob({
    id,
    created_at: '2026-11-21T11:00:00.000Z',
    started_at: '2026-11-21T11:00:05.000Z',
    finished_at: '2026-11-21T11:02:05.000Z',
    duration: 120.4,
    queued_duration: 5.1,
    web_url: `http://gitlab.example/acme/api/-/jobs/${id}`,
    commit: null,
    pipeline: { id: 300, project_id: 7, ref: 'main', sha: 'a'.repeat(40), status: 'failed' },
  });

/**
 * A GitLab stand-in that streams a 40 MiB job log (GET /projects/:id/jobs/:job_id/trace,
 * docs.gitlab.com/api/jobs/#get-a-log-file) chunk by chunk, and counts logs sent at once.
 */
let gitlab: http.Server;
let gitlabUrl: string;
let tracesInFlight = 0;
let maxTracesInFlight = 0;
let traceDelayMs = 0;

beforeAll(async () => {
  gitlab = http.createServer(async (req, res) => {
    const trace = /^\/api\/v4\/projects\/7\/jobs\/(\d+)\/trace$/.exec(req.url ?? '');
    if (trace) {
      tracesInFlight++;
      maxTracesInFlight = Math.max(maxTracesInFlight, tracesInFlight);
      res.on('close', () => tracesInFlight--);
      if (traceDelayMs) await new Promise((r) => setTimeout(r, traceDelayMs));
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      if (trace[1] === '1') {
        res.end('short log\n');
        return;
      }
      let n = 0;
      let sent = 0;
      const size = (Number(trace[1]) >= 100 ? 2 : LOG_MIB) * MiB;
      const pump = () => {
        while (sent < size) {
          let chunk = '';
          while (chunk.length < 64 * 1024) chunk += line(n++);
          sent += Buffer.byteLength(chunk);
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    const job = /^\/api\/v4\/projects\/7\/jobs\/(\d+)$/.exec(req.url ?? '');
    res.writeHead(job ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(job ? jobJson(Number(job[1])) : { message: '404 Not Found' }));
  });
  await new Promise<void>((r) => gitlab.listen(0, '127.0.0.1', r));
  gitlabUrl = `http://127.0.0.1:${(gitlab.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => gitlab.close(() => r())));

async function serve(logs: JobLogReader) {
  const client = new GitLabClient({ baseUrl: gitlabUrl, token: 't', logger: silentLogger });
  const served = await serveTestApp({ routes: [jobRoutes({ gitlab: client, logs })] });
  return {
    get: (jobId: number) => fetch(`${served.base}/api/jobtrace?projectId=7&jobId=${jobId}`),
    close: () => served.close(),
  };
}

describe('job logs (issue 9, item 4)', () => {
  it('serves the tail of a huge log with truncated: true and the whole size', async () => {
    const logs = new JobLogReader({ baseUrl: gitlabUrl, token: 't', maxBytes: 1 * MiB });
    const api = await serve(logs);
    try {
      const res = await api.get(42);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        trace: string;
        complete: boolean;
        truncated?: boolean;
        bytes?: number;
      };
      expect(body.truncated).toBe(true);
      expect(body.bytes).toBeGreaterThanOrEqual(LOG_MIB * MiB);
      expect(Buffer.byteLength(body.trace)).toBeLessThanOrEqual(1 * MiB);
      expect(Buffer.byteLength(body.trace)).toBeGreaterThan(0.9 * MiB);
      // The tail starts at a whole line (no cut character) and ends with the log's last line.
      expect(body.trace).toMatch(/^\d{8} é{20} step output\n/);
      expect(body.trace).not.toContain('\ufffd');
      const lines = body.trace.trimEnd().split('\n');
      const last = Number(lines.at(-1)!.slice(0, 8));
      const first = Number(lines[0]!.slice(0, 8));
      expect(last - first + 1).toBe(lines.length);
      expect(body.complete).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('serves a short log whole, without the truncation fields', async () => {
    const api = await serve(new JobLogReader({ baseUrl: gitlabUrl, token: 't', maxBytes: MiB }));
    try {
      // error_lines (the failed job's error line indices) is another additive field; none here.
      expect(await (await api.get(1)).json()).toEqual({
        trace: 'short log\n',
        complete: true,
        error_lines: [],
      });
    } finally {
      await api.close();
    }
  });

  it('reads at most maxConcurrent logs at once and refuses past the queue with a 503', async () => {
    maxTracesInFlight = 0;
    traceDelayMs = 100;
    const logs = new JobLogReader({
      baseUrl: gitlabUrl,
      token: 't',
      maxBytes: 256 * 1024,
      maxConcurrent: 2,
      maxWaiting: 3,
    });
    const api = await serve(logs);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => api.get(100 + i).then((r) => r.status)),
      );
      expect(maxTracesInFlight).toBe(2);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 503)).toHaveLength(1);
    } finally {
      traceDelayMs = 0;
      await api.close();
    }
  });

  it('caps the logs the AI service reads too, leaving every other GitLab call as it was', async () => {
    const client = new GitLabClient({ baseUrl: gitlabUrl, token: 't', logger: silentLogger });
    const logs = new JobLogReader({ baseUrl: gitlabUrl, token: 't', maxBytes: 64 * 1024 });
    const capped = withCappedJobLogs(client, logs);
    expect(Buffer.byteLength(await capped.getJobTrace(7, 42))).toBeLessThanOrEqual(64 * 1024);
    expect((await capped.getJob(7, 42)).name).toBe('test:unit');
    expect(capped.baseUrl).toBe(client.baseUrl);
  });
});

describe('GET /api/jobs/:projectId/:jobId (issue 28: explain and the MCP server start from a job)', () => {
  it('answers the job with its pipeline id and ref; an unknown job is a 404', async () => {
    const client = new GitLabClient({ baseUrl: gitlabUrl, token: 't', logger: silentLogger });
    const logs = new JobLogReader({ baseUrl: gitlabUrl, token: 't', maxBytes: MiB });
    const served = await serveTestApp({ routes: [jobRoutes({ gitlab: client, logs })] });
    try {
      const res = await fetch(`${served.base}/api/jobs/7/42`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        id: 42,
        project_id: 7,
        pipeline_id: 300,
        ref: 'main',
        status: 'failed',
        duration: 120,
        web_url: 'http://gitlab.example/acme/api/-/jobs/42',
      });
      const unknown = await fetch(`${served.base}/api/jobs/8/42`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: string }).error).toMatch(/not found/i);
      expect((await fetch(`${served.base}/api/jobs/7/abc`)).status).toBe(400);
    } finally {
      await served.close();
    }
  });
});
