import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CachedAnalysis } from '../../../server/contract.ts';
import { errorResponse, jsonResponse, routeFetch } from '../../testing/render-with-feed.tsx';
import AiPanel from './ai-panel.tsx';

const job = {
  id: 13,
  name: 'unit',
  stage: 'test',
  status: 'failed',
  created_at: '2026-03-10T10:00:00Z',
  started_at: null,
  finished_at: null,
  duration: 95,
};

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

function fakeAiService() {
  let cache: CachedAnalysis | null = null;
  const routed = routeFetch((method, url, body) => {
    const b = body as Record<string, unknown>;
    if (url.pathname === '/api/ai/analyzed')
      return jsonResponse({ projectId: 1, analyzedJobIds: cache ? [cache.jobId] : [] });
    if (url.pathname === '/api/ai/cache' && method === 'GET')
      return cache ? jsonResponse(cache) : errorResponse(404, 'No analysis');
    if (url.pathname === '/api/ai/cache' && method === 'DELETE') {
      // Like the service since issue 30: nothing to delete is a 404.
      if (!cache) return errorResponse(404, 'No cached analysis for job 13 of project 1');
      cache = null;
      return jsonResponse({ success: true, message: 'Deleted' });
    }
    if (url.pathname === '/api/ai/analyse') {
      const wasCached = cache !== null;
      cache ??= {
        projectId: 1,
        pipelineId: 2,
        jobId: 13,
        jobName: 'unit',
        stage: 'test',
        analysis: '## Root cause\n\nThe **cache** test failed. <script>alert(1)</script>',
        conversation: [],
        timestamp: new Date().toISOString(),
      };
      const result = { analysis: cache.analysis, cached: wasCached, timestamp: cache.timestamp };
      if (!b.stream) return jsonResponse(result);
      // Stream like the service: delta pieces, then the authoritative `done`.
      const frames = [
        `event: delta\ndata: ${JSON.stringify({ text: '## Root' })}\n\n`,
        `event: delta\ndata: ${JSON.stringify({ text: ' cause' })}\n\n`,
        `event: done\ndata: ${JSON.stringify(result)}\n\n`,
      ];
      return new Response(frames.join(''), { headers: { 'content-type': 'text/event-stream' } });
    }
    if (url.pathname === '/api/ai/followup') {
      const answer = `Run \`npm test\` (${String(b.question)})`;
      cache?.conversation.push({
        question: String(b.question),
        answer,
        timestamp: new Date().toISOString(),
      });
      return jsonResponse({ answer, timestamp: new Date().toISOString() });
    }
    return undefined;
  });
  /** Another window deletes the analysis behind this one's back. */
  const forget = () => (cache = null);
  return { ...routed, forget };
}

describe('AiPanel', () => {
  it('analyses, renders markdown safely, asks a follow-up and deletes from the cache', async () => {
    const fake = fakeAiService();
    restore = fake.restore;
    const { container } = render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Analyze with AI' }));
    expect(await screen.findByRole('heading', { name: 'Root cause' })).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.queryByText('cached')).toBeNull();
    const analyse = fake.calls.find((c) => c.url.pathname === '/api/ai/analyse')!;
    expect(analyse.body).toEqual({
      projectId: 1,
      pipelineId: 2,
      jobId: 13,
      jobName: 'unit',
      stage: 'test',
      stream: true,
    });

    fireEvent.change(screen.getByLabelText('Follow-up question'), {
      target: { value: 'How to reproduce?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByText('(How to reproduce?)', { exact: false })).toBeTruthy();
    const follow = fake.calls.find((c) => c.url.pathname === '/api/ai/followup')!;
    expect((follow.body as { previousAnalysis: string }).previousAnalysis).toContain('Root cause');

    fireEvent.click(screen.getByRole('button', { name: /Delete/ }));
    expect(await screen.findByRole('button', { name: 'Analyze with AI' })).toBeTruthy();
  });

  it('clears an analysis another window already deleted without an error (the 404 it gets)', async () => {
    const fake = fakeAiService();
    restore = fake.restore;
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Analyze with AI' }));
    expect(await screen.findByRole('heading', { name: 'Root cause' })).toBeTruthy();
    fake.forget();
    fireEvent.click(screen.getByRole('button', { name: /Delete/ }));
    expect(await screen.findByRole('button', { name: 'Analyze with AI' })).toBeTruthy();
    expect(screen.queryByText('The AI request failed')).toBeNull();
  });

  it('opens a cached analysis with its conversation and a cached badge', async () => {
    const fake = fakeAiService();
    restore = fake.restore;
    // Prime the fake cache with one analysis and one follow-up.
    await fetch('/api/ai/analyse', { method: 'POST', body: JSON.stringify({}) });
    await fetch('/api/ai/followup', { method: 'POST', body: JSON.stringify({ question: 'Why?' }) });
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    expect(await screen.findByText('cached')).toBeTruthy();
    expect(screen.getByText('Why?')).toBeTruthy();
  });

  it("shows the provider's error in words", async () => {
    const routed = routeFetch((method, url) => {
      if (url.pathname === '/api/ai/analyzed')
        return jsonResponse({ projectId: 1, analyzedJobIds: [] });
      if (url.pathname === '/api/ai/cache') return errorResponse(404, 'none');
      if (url.pathname === '/api/ai/analyse')
        return errorResponse(502, 'The AI provider did not answer: connection refused');
      return undefined;
    });
    restore = routed.restore;
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Analyze with AI' }));
    // A job that was never analysed is known from the list: no 404 asking for its cache.
    expect(routed.calls.filter((c) => c.url.pathname === '/api/ai/cache')).toEqual([]);
    expect(
      await screen.findByText('The AI provider did not answer: connection refused'),
    ).toBeTruthy();
  });
});

describe('AiPanel re-analyse', () => {
  it('re-analyses with force: true and clears the old conversation', async () => {
    const fake = fakeAiService();
    restore = fake.restore;
    await fetch('/api/ai/analyse', { method: 'POST', body: JSON.stringify({}) });
    await fetch('/api/ai/followup', { method: 'POST', body: JSON.stringify({ question: 'Why?' }) });
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    expect(await screen.findByText('Why?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Re-analyse/ }));
    await screen.findByRole('button', { name: /Re-analyse/ });
    await waitFor(() => expect(screen.queryByText('Why?')).toBeNull());
    const last = fake.calls.filter((c) => c.url.pathname === '/api/ai/analyse').pop()!;
    expect(last.body).toMatchObject({ force: true, stream: true, jobId: 13 });
  });
});

describe('AiPanel with the built-in analyser', () => {
  it('says an offline answer is the built-in analyser and that the system prompt does not apply', async () => {
    const offline: CachedAnalysis = {
      projectId: 1,
      pipelineId: 2,
      jobId: 13,
      jobName: 'unit',
      stage: 'test',
      analysis:
        '**Root cause category:** Test failure.\n\n_Built-in offline analysis: pattern rules over the log (40 of 40 lines examined in focus). Configure an AI provider for a deeper explanation._',
      conversation: [],
      timestamp: new Date().toISOString(),
    };
    const fake = routeFetch((method, url) => {
      if (url.pathname === '/api/ai/analyzed')
        return jsonResponse({ projectId: 1, analyzedJobIds: [offline.jobId] });
      return url.pathname === '/api/ai/cache' && method === 'GET'
        ? jsonResponse(offline)
        : undefined;
    });
    restore = fake.restore;
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toMatch(/built-in analyser/);
    expect(note.textContent).toMatch(/system prompt applies only to configured AI providers/);
  });

  it('shows no such note under a model’s answer', async () => {
    const fake = fakeAiService();
    restore = fake.restore;
    render(<AiPanel projectId={1} pipelineId={2} job={job} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Analyze with AI' }));
    expect(await screen.findByRole('heading', { name: 'Root cause' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
