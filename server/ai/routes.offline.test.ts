import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT } from './prompt.ts';
import { jobBody, readSse, startAiHarness, type AiHarness } from './testing/harness.ts';

let h: AiHarness;
beforeAll(async () => {
  h = await startAiHarness();
});
afterAll(() => h.close());

async function expectError(res: Response, status: number, text: RegExp) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  expect(body.error).toMatch(text);
}

describe('AI routes with the offline analyser', () => {
  it('analyses a job from its GitLab log, then serves it from the cache', async () => {
    const first = await h.post('/ai/analyse', jobBody(9001));
    expect(first.status).toBe(200);
    const a = (await first.json()) as { analysis: string; cached: boolean; timestamp: string };
    expect(Object.keys(a).sort()).toEqual(['analysis', 'cached', 'timestamp']);
    expect(a.cached).toBe(false);
    expect(a.timestamp).toBe('2026-11-21T12:00:00.000Z');
    expect(a.analysis).toContain('**Root cause category:** Test failure.');
    expect(a.analysis).toContain('Received: 100.5');
    // Context beyond the log: the previous green run and the commits since.
    expect(a.analysis).toContain('job #8990 in pipeline #290');
    expect(h.gitlab.calls).toContain('getJobTrace:9001');

    h.clock.advance(60_000);
    const again = (await (await h.post('/ai/analyse', jobBody(9001))).json()) as typeof a;
    expect(again).toEqual({ ...a, cached: true });

    const cache = (await (await h.get('/ai/cache?projectId=7&jobId=9001')).json()) as Record<
      string,
      unknown
    >;
    expect(cache).toEqual({
      projectId: 7,
      pipelineId: 300,
      jobId: 9001,
      jobName: 'test:unit',
      stage: 'test',
      analysis: a.analysis,
      conversation: [],
      timestamp: a.timestamp,
    });
    expect(await (await h.get('/ai/analyzed?projectId=7')).json()).toEqual({
      projectId: 7,
      analyzedJobIds: [9001],
    });
  });

  it('re-analyses with force and uses a log sent in the body instead of fetching one', async () => {
    h.gitlab.calls.length = 0;
    const res = await h.post(
      '/ai/analyse',
      jobBody(9001, {
        force: true,
        log: '$ ./deploy.sh\n./deploy.sh: line 3: helm: command not found\nERROR: Job failed: exit code 127\n',
      }),
    );
    const body = (await res.json()) as { analysis: string; cached: boolean };
    expect(body.cached).toBe(false);
    expect(body.analysis).toContain('helm: command not found');
    expect(h.gitlab.calls).not.toContain('getJobTrace:9001');
  });

  it('rejects bad ids, unknown jobs, mismatched pipelines and logless jobs in the error shape', async () => {
    await expectError(
      await h.post('/ai/analyse', { pipelineId: 300, jobId: 9001 }),
      400,
      /'projectId'/,
    );
    await expectError(
      await h.post('/ai/analyse', jobBody(9001, { projectId: '7' })),
      400,
      /'projectId': must be a positive integer/,
    );
    await expectError(await h.post('/ai/analyse', jobBody(9001, { jobId: 1.5 })), 400, /'jobId'/);
    await expectError(await h.post('/ai/analyse', jobBody(424242)), 404, /Job 424242 not found/);
    await expectError(
      await h.post('/ai/analyse', jobBody(9001, { pipelineId: 301 })),
      400,
      /belongs to pipeline 300, not 301/,
    );
    await expectError(
      await h.post('/ai/analyse', jobBody(9001, { force: true, log: '  \n' })),
      400,
      /has no log to analyse/,
    );
    await expectError(await h.get('/ai/cache?projectId=7'), 400, /'jobId': is required/);
    await expectError(
      await h.get('/ai/cache?projectId=7&jobId=abc'),
      400,
      /'jobId': must be a positive integer/,
    );
    await expectError(await h.get('/ai/analyzed'), 400, /'projectId'/);
    await expectError(
      await h.get('/ai/cache?projectId=7&jobId=9001&jobId=9002'),
      400,
      /^Invalid 'jobId': is duplicated \(given 2 times\); give it once$/,
    );
  });

  it('threads follow-ups into the cached conversation', async () => {
    const ask = (question: string) =>
      h.post('/ai/followup', jobBody(9001, { question, previousAnalysis: 'ignored' }));
    // Back to the job's own log (the previous test analysed a log sent in the body).
    await h.post('/ai/analyse', jobBody(9001, { force: true }));
    h.clock.advance(1000);
    const r1 = (await (await ask('How do I fix it?')).json()) as {
      answer: string;
      timestamp: string;
    };
    expect(Object.keys(r1).sort()).toEqual(['answer', 'timestamp']);
    expect(r1.answer).toMatch(/To fix this/);
    h.clock.advance(1000);
    const r2 = (await (await ask('Which file is it in?')).json()) as { answer: string };
    expect(r2.answer).toContain('src/cart/totals.test.ts:43');
    const cache = (await (await h.get('/ai/cache?projectId=7&jobId=9001')).json()) as {
      conversation: { question: string; answer: string; timestamp: string }[];
    };
    expect(cache.conversation.map((c) => c.question)).toEqual([
      'How do I fix it?',
      'Which file is it in?',
    ]);
    expect(cache.conversation[1]!.answer).toBe(r2.answer);
    expect(cache.conversation[0]!.timestamp).toBe(r1.timestamp);
  });

  it('validates follow-ups', async () => {
    await expectError(
      await h.post('/ai/followup', jobBody(9001, { question: '   ' })),
      400,
      /'question': must not be empty/,
    );
    await expectError(
      await h.post('/ai/followup', jobBody(9001, { question: 'x'.repeat(4001) })),
      400,
      /'question': must be at most 4000/,
    );
    await expectError(
      await h.post('/ai/followup', jobBody(9002, { question: 'why?' })),
      400,
      /has not been analysed yet/,
    );
    await expectError(
      await h.post('/ai/followup', jobBody(777, { question: 'why?', previousAnalysis: 'x' })),
      404,
      /Job 777 not found/,
    );
  });

  it('accepts a follow-up on an analysis the client holds, and stores both', async () => {
    const res = await h.post(
      '/ai/followup',
      jobBody(9002, {
        jobName: 'lint',
        question: 'Why did it fail?',
        previousAnalysis: 'ESLint failed.',
      }),
    );
    expect(res.status).toBe(200);
    const cache = (await (await h.get('/ai/cache?projectId=7&jobId=9002')).json()) as {
      analysis: string;
      jobName: string;
      conversation: unknown[];
    };
    expect(cache).toMatchObject({
      analysis: 'ESLint failed.',
      jobName: 'lint',
      conversation: [{ question: 'Why did it fail?' }],
    });
  });

  it('deletes a cached analysis; deleting one that is not there is a 404 like its GET', async () => {
    expect(await (await h.del('/ai/cache?projectId=7&jobId=9002')).json()).toEqual({
      success: true,
      message: 'Deleted the analysis of job 9002',
    });
    await expectError(
      await h.del('/ai/cache?projectId=7&jobId=9002'),
      404,
      /No cached analysis for job 9002 of project 7/,
    );
    await expectError(
      await h.get('/ai/cache?projectId=7&jobId=9002'),
      404,
      /No cached analysis for job 9002/,
    );
  });

  it('pages history newest first, with exact pagination and conversation counts', async () => {
    h.clock.advance(1000);
    await h.post('/ai/analyse', jobBody(9003));
    h.clock.advance(1000);
    await h.post('/ai/analyse', jobBody(8990));
    type History = {
      analyses: { jobId: number; projectName: string; conversationCount: number }[];
      pagination: Record<string, number>;
    };
    const page = async (q: string) => (await (await h.get(`/ai/history${q}`)).json()) as History;
    const all = await page('');
    expect(all.pagination).toEqual({ currentPage: 1, pageSize: 20, totalPages: 1, totalCount: 3 });
    expect(all.analyses.map((a) => a.jobId)).toEqual([8990, 9003, 9001]);
    expect(all.analyses[2]).toMatchObject({ projectName: 'shop-web', conversationCount: 2 });
    expect(Object.keys(all.analyses[0]!).sort()).toEqual(
      [
        'analysis',
        'conversationCount',
        'jobId',
        'jobName',
        'pipelineId',
        'projectId',
        'projectName',
        'stage',
        'timestamp',
      ].sort(),
    );
    const second = await page('?page=2&pageSize=2');
    expect(second.analyses.map((a) => a.jobId)).toEqual([9001]);
    expect(second.pagination).toEqual({
      currentPage: 2,
      pageSize: 2,
      totalPages: 2,
      totalCount: 3,
    });
    const past = await page('?page=9&pageSize=2');
    expect(past).toEqual({
      analyses: [],
      pagination: { currentPage: 9, pageSize: 2, totalPages: 2, totalCount: 3 },
    });
    expect((await page('?pageSize=101')).pagination.pageSize).toBe(100);
    // Below 1 is a 400, not clamped (DESIGN §3.1; issue 9, item 6).
    await expectError(await h.get('/ai/history?pageSize=0'), 400, /'pageSize': must be 1 or more/);
    await expectError(await h.get('/ai/history?page=0'), 400, /'page': must be 1 or more/);
    await expectError(await h.get('/ai/history?page=-3'), 400, /'page': must be 1 or more/);
    await expectError(
      await h.get('/ai/history?pageSize=abc'),
      400,
      /'pageSize': must be an integer/,
    );
    await expectError(await h.get('/ai/history?page=1.5'), 400, /'page': must be an integer/);
  });

  it('keeps an editable system prompt with a sensible default', async () => {
    const initial = (await (await h.get('/ai/system-prompt')).json()) as { prompt: string };
    expect(initial.prompt).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(initial.prompt).toMatch(/Root cause[\s\S]*Evidence[\s\S]*Fix/);
    const put = await h.put('/ai/system-prompt', { prompt: '  Be brief.  ' });
    expect(await put.json()).toEqual({ success: true, prompt: 'Be brief.' });
    expect(((await (await h.get('/ai/system-prompt')).json()) as { prompt: string }).prompt).toBe(
      'Be brief.',
    );
    await expectError(
      await h.put('/ai/system-prompt', { prompt: '' }),
      400,
      /'prompt': must not be empty/,
    );
    await expectError(
      await h.put('/ai/system-prompt', { prompt: 'x'.repeat(20_001) }),
      400,
      /longer than 20000/,
    );
    await expectError(await h.put('/ai/system-prompt', {}), 400, /'prompt': is required/);
    await expectError(
      await h.put('/ai/system-prompt', { prompt: 5 }),
      400,
      /^Invalid 'prompt': must be a string$/,
    );
    expect(await (await h.del('/ai/system-prompt')).json()).toEqual({
      success: true,
      prompt: DEFAULT_SYSTEM_PROMPT,
    });
  });

  it('streams an analysis as SSE, and reports an unknown job as a plain 404', async () => {
    const res = await h.post('/ai/analyse', jobBody(9002, { stream: true }));
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    expect(events.at(-1)!.event).toBe('done');
    const done = events.at(-1)!.data as { analysis: string; cached: boolean };
    expect(done.cached).toBe(false);
    expect(done.analysis).toContain('Compile, type-check or lint error');
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(done.analysis);
    await expectError(
      await h.post('/ai/analyse', jobBody(31337, { stream: true })),
      404,
      /Job 31337 not found/,
    );
  });

  it('analyses a whole pipeline with duplicate errors merged', async () => {
    const res = await h.post('/ai/analyse-pipeline', { projectId: 7, pipelineId: 300 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      analysis: string;
      cached: boolean;
      jobs: { jobId: number; problem: number }[];
    };
    expect(body.cached).toBe(false);
    expect(body.analysis).toContain('3 failed jobs, 2 distinct problems');
    expect(body.analysis).toContain('The same error appears in 2 jobs');
    expect(body.jobs).toEqual([
      { jobId: 9001, jobName: 'test:unit', stage: 'test', problem: 1 },
      { jobId: 9003, jobName: 'test:api', stage: 'test', problem: 1 },
      { jobId: 9002, jobName: 'lint', stage: 'verify', problem: 2 },
    ]);
    const again = (await (
      await h.post('/ai/analyse-pipeline', { projectId: 7, pipelineId: 300 })
    ).json()) as typeof body;
    expect(again.cached).toBe(true);
    await expectError(
      await h.post('/ai/analyse-pipeline', { projectId: 7, pipelineId: 999 }),
      404,
      /Pipeline 999 not found/,
    );
  });

  it('reports the offline provider and refuses unknown providers or bad URLs', async () => {
    expect(await (await h.get('/ai/provider')).json()).toMatchObject({
      provider: 'offline',
      apiKeySet: false,
      secretStore: null,
      providers: ['offline', 'openai', 'anthropic'],
    });
    await expectError(
      await h.put('/ai/provider', { provider: 'gemini' }),
      400,
      /'provider': must be one of offline, openai, anthropic/,
    );
    await expectError(
      await h.put('/ai/provider', { provider: 'openai', baseUrl: 'ftp://x' }),
      400,
      /must use http or https/,
    );
  });
});
