import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { SummaryResponse } from '../../server/contract.ts';
import { FeedContext } from '../app-context.ts';
import { fakeLiveFeed } from './fake-live-feed.ts';

/** A JSON response as the service sends it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The service's error body. */
export function errorResponse(status: number, error: string): Response {
  return jsonResponse({ error, statusCode: status, timestamp: '2026-03-10T12:00:00.000Z' }, status);
}

/**
 * Renders `ui` under a LiveFeed whose snapshot is `summary` (or a failing snapshot), driven by a
 * FakeEventSource the test can push events through.
 */
export function renderWithFeed(ui: ReactElement, summary: SummaryResponse | Error | null) {
  const { feed, sources, timers } = fakeLiveFeed(async () => {
    if (summary instanceof Error) return errorResponse(502, summary.message);
    if (summary === null) return new Promise<Response>(() => undefined);
    return jsonResponse(summary);
  });
  feed.start();
  const result = render(<FeedContext value={feed}>{ui}</FeedContext>);
  return { ...result, feed, sources, timers };
}

/** Replaces global fetch with a router over `/api/...` paths for the duration of a test. */
export function routeFetch(
  routes: (method: string, url: URL, body: unknown) => Response | Promise<Response> | undefined,
) {
  const calls: { method: string; url: URL; body: unknown }[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    return (
      (await routes(method, url, body)) ?? errorResponse(404, `No route ${method} ${url.pathname}`)
    );
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}
