// Development-only stand-in for the service: serves dist/renderer and the API from seeded fixtures,
// with a live `pipeline-update` every few seconds. The e2e tests use the real `serve --demo`.
// Run: npx tsx renderer/testing/fixture-server.mjs [port]
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipelineDetails, summaryFixture } from './fixtures.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/renderer');
const port = Number(process.argv[2] ?? 5173);
let summary = summaryFixture(40, new Date(), 7);
const clients = new Set();
const analyses = new Map();
let prompt = 'You are a CI failure analyst. Find the root cause and propose a fix.';
const E = '\x1b';
const trace = [
  `${E}[0Ksection_start:1700000000:prepare_executor[collapsed=true]\r${E}[0K${E}[36;1mPreparing the "docker" executor${E}[0;m`,
  'Using Docker executor with image node:24 ...',
  'Pulling docker image node:24 ...',
  `${E}[0Ksection_end:1700000004:prepare_executor\r${E}[0K`,
  `${E}[0Ksection_start:1700000004:step_script\r${E}[0K${E}[36;1mExecuting "step_script" stage of the job script${E}[0;m`,
  `${E}[32;1m$ npm ci${E}[0;m`,
  'added 812 packages in 14s',
  `${E}[32;1m$ npm test${E}[0;m`,
  ...Array.from(
    { length: 40 },
    (_, i) => ` ${E}[32m✓${E}[0m cache › test case ${i + 1} ${E}[2m(${3 + i}ms)${E}[0m`,
  ),
  ` ${E}[31m✗ cache › evicts the oldest entry${E}[0m`,
  `   ${E}[31mAssertionError: expected 3 to equal 2${E}[0m`,
  '     at Context.<anonymous> (test/cache.test.ts:42:18)',
  `${E}[0Ksection_end:1700000100:step_script\r${E}[0K`,
  `${E}[31;1mERROR: Job failed: exit code 1${E}[0;m`,
  '',
].join('\n');

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
const err = (res, status, error) =>
  send(res, status, { error, statusCode: status, timestamp: new Date().toISOString() });

async function readBody(req) {
  let data = '';
  for await (const c of req) data += c;
  return data ? JSON.parse(data) : {};
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  const q = url.searchParams;
  if (p === '/api/pipelines/summary') return send(res, 200, summary);
  if (p === '/api/events/pipelines') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`retry: 3000\n\nevent: pipeline-update\ndata: ${JSON.stringify(summary)}\n\n`);
    clients.add(res);
    req.on('close', () => clients.delete(res));
    return;
  }
  const details = /^\/api\/pipelines\/(\d+)\/details\/(\d+)$/.exec(p);
  if (details) {
    const project = summary.projects.find((x) => x.project_id === Number(details[1]));
    const rp = project?.recent_pipelines.find((x) => x.pipeline_id === Number(details[2]));
    if (!project || !rp) return err(res, 404, 'Pipeline not found');
    return send(
      res,
      200,
      pipelineDetails({
        project_id: project.project_id,
        project_name: project.project_name,
        pipeline_id: rp.pipeline_id,
        status: rp.status,
        ref: rp.ref,
        created_at: rp.created_at,
      }),
    );
  }
  if (p === '/api/jobtrace') return send(res, 200, { trace, complete: true });
  if (p === '/api/settings' && req.method === 'GET')
    return send(res, 200, {
      group: summary.status.group,
      since: summary.status.since,
      forgeUrl: 'http://gitlab.test',
    });
  if (p === '/api/settings' && req.method === 'POST') {
    const b = await readBody(req);
    summary = {
      ...summary,
      status: {
        ...summary.status,
        group: b.group ?? summary.status.group,
        since: b.since ?? summary.status.since,
      },
    };
    return send(res, 200, {
      success: true,
      group: summary.status.group,
      since: summary.status.since,
    });
  }
  const group = /^\/api\/groups\/([^/]+)(\/subgroups)?$/.exec(p);
  if (p.startsWith('/api/groups/parent/'))
    return send(res, 200, [{ id: 3, name: 'Other', path: 'other' }]);
  if (group) {
    const full = decodeURIComponent(group[1]);
    if (group[2])
      return send(
        res,
        200,
        ['backend', 'frontend', 'infra'].map((n, i) => ({
          id: 10 + i,
          name: n,
          path: n,
          full_path: `${full}/${n}`,
        })),
      );
    return send(res, 200, {
      id: 1,
      name: full.split('/').pop(),
      path: full.split('/').pop(),
      full_path: full,
      description: 'Demo group',
      visibility: 'private',
      parent_id: full.includes('/') ? 1 : null,
    });
  }
  if (p === '/api/ai/cache') {
    const key = `${q.get('projectId')}/${q.get('jobId')}`;
    if (req.method === 'DELETE') {
      analyses.delete(key);
      return send(res, 200, { success: true, message: 'deleted' });
    }
    return analyses.has(key)
      ? send(res, 200, analyses.get(key))
      : err(res, 404, 'No cached analysis');
  }
  if (p === '/api/ai/analyse') {
    const b = await readBody(req);
    const key = `${b.projectId}/${b.jobId}`;
    const analysis = `## Root cause\n\nThe **unit** job failed in \`npm test\`: the cache test *evicts the oldest entry* expected 2 entries but found 3.\n\n## Fix\n\n1. Check the eviction order in \`src/cache.ts\`\n2. Run \`npm test -- cache\` locally\n\n\`\`\`bash\nnpm test -- cache\n\`\`\``;
    const entry = {
      projectId: b.projectId,
      pipelineId: b.pipelineId,
      jobId: b.jobId,
      jobName: b.jobName,
      stage: b.stage,
      analysis,
      conversation: [],
      timestamp: new Date().toISOString(),
    };
    const cached = analyses.has(key);
    if (!cached) analyses.set(key, entry);
    return send(res, 200, {
      analysis: analyses.get(key).analysis,
      cached,
      timestamp: analyses.get(key).timestamp,
    });
  }
  if (p === '/api/ai/followup') {
    const b = await readBody(req);
    const answer = `Run \`npm test -- cache\` with \`DEBUG=cache\` to see the eviction order. (${b.question})`;
    const e = analyses.get(`${b.projectId}/${b.jobId}`);
    const ts = new Date().toISOString();
    e?.conversation.push({ question: b.question, answer, timestamp: ts });
    return send(res, 200, { answer, timestamp: ts });
  }
  if (p === '/api/ai/history') {
    const list = [...analyses.values()].map((a) => ({
      ...a,
      projectName: `project-${a.projectId}`,
      conversationCount: a.conversation.length,
    }));
    return send(res, 200, {
      analyses: list,
      pagination: { currentPage: 1, pageSize: 20, totalPages: 1, totalCount: list.length },
    });
  }
  if (p === '/api/ai/system-prompt') {
    if (req.method === 'PUT') prompt = (await readBody(req)).prompt;
    return send(res, 200, req.method === 'GET' ? { prompt } : { success: true, prompt });
  }
  if (p === '/api/ai/provider')
    return send(res, 200, { provider: 'offline', model: 'built-in rules', configured: true });
  if (p === '/api/avatar') return err(res, 404, 'no avatars in the fixture server');
  if (p.startsWith('/api/')) return err(res, 404, 'Not found');
  let file = path.join(root, p);
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile())
    file = path.join(root, 'index.html');
  const type =
    { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[
      path.extname(file)
    ] ?? 'application/octet-stream';
  res.writeHead(200, { 'content-type': type });
  createReadStream(file).pipe(res);
});

setInterval(() => {
  summary = summaryFixture(40, new Date(), 7 + Math.floor(Date.now() / 10_000));
  for (const c of clients) c.write(`event: pipeline-update\ndata: ${JSON.stringify(summary)}\n\n`);
}, 10_000).unref();
server.listen(port, '127.0.0.1', () => console.log(`fixture server on http://127.0.0.1:${port}`));
