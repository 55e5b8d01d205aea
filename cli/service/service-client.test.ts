import { describe, expect, it } from 'vitest';
import { ServiceClient, ServiceError } from './service-client.ts';
import { rejectionOf } from '../../server/platform/testing/rejection.ts';

/** A fetch answering from a list of [status, body] in order, recording the Authorization sent. */
function scripted(answers: [number, unknown][]) {
  const auth: (string | null)[] = [];
  const fetch = (async (_url: URL | string, init?: RequestInit) => {
    auth.push(new Headers(init?.headers).get('authorization'));
    const [status, body] = answers.shift()!;
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as typeof globalThis.fetch;
  return { fetch, auth };
}

const errorBody = (statusCode: number, error: string) => ({
  error,
  statusCode,
  timestamp: '2026-11-28T12:00:00.000Z',
});

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ServiceError);

describe('ServiceClient', () => {
  it("asks for this machine's access token once a shared service wants it, then keeps sending it", async () => {
    const { fetch, auth } = scripted([
      [
        401,
        errorBody(401, 'This service needs its access token: send Authorization: Bearer <token>'),
      ],
      [200, { ok: 1 }],
      [200, { ok: 2 }],
    ]);
    let lookups = 0;
    const client = new ServiceClient({
      baseUrl: 'http://127.0.0.1:5100/',
      fetch,
      lookupToken: async () => (lookups++, 'stored-token'),
    });
    expect(await client.get('/api/settings')).toEqual({ ok: 1 });
    expect(await client.get('/api/settings')).toEqual({ ok: 2 });
    expect(auth).toEqual([null, 'Bearer stored-token', 'Bearer stored-token']);
    expect(lookups).toBe(1);
  });

  it('tells a missing token from a wrong one, and from GitLab refusing the service', async () => {
    const needs = errorBody(401, 'This service needs its access token: send …');
    const missing = await failure(
      new ServiceClient({ baseUrl: 'http://s', fetch: scripted([[401, needs]]).fetch }).get('/x'),
    );
    expect([missing.code, missing.message]).toEqual([
      'unauthorized',
      'The service at http://s is shared and needs its access token: set PIPELINE_SUMMARY_ACCESS_TOKEN',
    ]);
    const wrong = await failure(
      new ServiceClient({
        baseUrl: 'http://s',
        token: 't',
        fetch: scripted([[401, errorBody(401, 'Wrong access token')]]).fetch,
      }).get('/x'),
    );
    expect(wrong.message).toBe(
      'The service at http://s refused the access token (Wrong access token)',
    );
    const limited = await failure(
      new ServiceClient({
        baseUrl: 'http://s',
        token: 't',
        fetch: scripted([[429, errorBody(429, 'Too many wrong access tokens; wait and try again')]])
          .fetch,
      }).get('/x'),
    );
    expect(limited.code).toBe('unauthorized');
    // GitLab's 401 for the service's own token is passed on as the service words it, no lookup.
    let lookups = 0;
    const gitlab = await failure(
      new ServiceClient({
        baseUrl: 'http://s',
        fetch: scripted([[401, errorBody(401, 'GitLab rejected the token (401): …')]]).fetch,
        lookupToken: async () => (lookups++, 'x'),
      }).get('/x'),
    );
    expect([gitlab.code, gitlab.message, lookups]).toEqual([
      'unauthorized',
      'GitLab rejected the token (401): …',
      0,
    ]);
  });

  it("keeps the service's message for 404, 400 and 5xx, and refuses an answer that is not JSON", async () => {
    const { fetch } = scripted([
      [404, errorBody(404, 'Job 1 of GitLab project 2 not found')],
      [400, errorBody(400, "Invalid 'since': must be …")],
      [502, errorBody(502, 'GitLab at gitlab.example.com is unavailable')],
      [503, '<html>proxy error</html>'],
      [200, '<html>a dashboard</html>'],
    ]);
    const client = new ServiceClient({ baseUrl: 'http://s', fetch });
    expect(await failure(client.get('/a'))).toMatchObject({
      code: 'not_found',
      status: 404,
      message: 'Job 1 of GitLab project 2 not found',
    });
    expect(await failure(client.get('/b'))).toMatchObject({ code: 'bad_request' });
    expect(await failure(client.get('/c'))).toMatchObject({
      code: 'failed',
      status: 502,
      message: 'GitLab at gitlab.example.com is unavailable',
    });
    expect((await failure(client.get('/d'))).message).toBe('The service answered /d with HTTP 503');
    expect((await failure(client.get('/e'))).message).toMatch(
      /^http:\/\/s answered \/e with something other than JSON: is it a Pipeline Summary service\?$/,
    );
  });

  it('says when nothing answers, or not in time', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    expect(
      await failure(new ServiceClient({ baseUrl: 'http://127.0.0.1:9', fetch: refused }).get('/x')),
    ).toMatchObject({
      code: 'unreachable',
      message:
        "No Pipeline Summary service answers at http://127.0.0.1:9: start one with 'pipeline-summary serve'",
    });
    const hangs = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as typeof globalThis.fetch;
    expect(
      await failure(
        new ServiceClient({ baseUrl: 'http://s', fetch: hangs, timeoutMs: 20 }).get('/x'),
      ),
    ).toMatchObject({ code: 'timeout' });
    expect(await new ServiceClient({ baseUrl: 'http://s', fetch: refused }).isUp()).toBe(false);
  });
});
