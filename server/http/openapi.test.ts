import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../platform/logger.ts';
import { createApp, type AppDeps, type RouteModule } from './app.ts';
import { describedRoutes, openApiDocument, type OpenApiDocument } from './openapi.ts';
import { idBodySchema, idParamSchema } from './validation.ts';

// A small domain of the kind the service's route modules are: one described module, one not.
const thingQuerySchema = z.object({
  projectId: idParamSchema,
  label: z.string().max(20).optional(),
});
const thingBodySchema = z.object({ jobId: idBodySchema, note: z.string().optional() }).strict();
const things = describedRoutes(
  [
    {
      method: 'get',
      path: '/things/:projectId',
      tag: 'Things',
      summary: 'A thing',
      docs: 'get-apithingsprojectid',
      params: z.object({ projectId: idParamSchema }),
      query: z.object({ label: z.string().max(20).optional() }),
      response: { description: 'A thing.' },
    },
    {
      method: 'post',
      path: '/things',
      tag: 'Things',
      summary: 'Makes a thing',
      docs: 'post-apithings',
      additive: true,
      body: thingBodySchema,
      response: { description: 'The thing.', schema: z.object({ id: z.number().int() }) },
    },
  ],
  (router) => {
    router.get('/things/:projectId', (ctx) => {
      ctx.body = { projectId: ctx.params.projectId, query: thingQuerySchema.parse(ctx.query) };
    });
    router.post('/things', (ctx) => void (ctx.body = { id: 1 }));
  },
);
const forgotten: RouteModule = (router) => {
  router.delete('/things/:projectId', (ctx) => void (ctx.body = {}));
};

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(deps: Partial<AppDeps>): Promise<string> {
  const app = createApp({
    logger: silentLogger,
    version: { version: '9.8.7', gitCommit: 'abc', buildDate: '2026-11-23' },
    routes: [things, forgotten],
    ...deps,
  });
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function fetchDocument(base: string): Promise<OpenApiDocument> {
  const res = await fetch(`${base}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as OpenApiDocument;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the service version and the error shape', async () => {
    const doc = await fetchDocument(await serve({}));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Pipeline Summary Service', version: '9.8.7' });
    expect(doc.components.schemas!.Error).toEqual({
      type: 'object',
      properties: {
        error: { type: 'string' },
        statusCode: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
        timestamp: { type: 'string' },
      },
      required: ['error', 'statusCode', 'timestamp'],
      additionalProperties: false,
    });
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/'))).toBe(true);
  });

  it('lists every route the router registered, described or not', async () => {
    const doc = await fetchDocument(await serve({}));
    // The same router createApp builds: its own routes, then each module's, then this one.
    const router = new Router({ prefix: '/api' });
    router.get('/health', () => {});
    router.get('/version', () => {});
    things(router);
    forgotten(router);
    router.get('/openapi.json', () => {});
    const served = router.stack.flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD')
        .map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
    );
    const described = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(described.sort()).toEqual(served.sort());
    expect(served).toHaveLength(6);
  });

  it('flags a route no module describes, so the route-coverage test can fail on it', async () => {
    const doc = await fetchDocument(await serve({}));
    expect(doc.paths['/api/things/{projectId}']!.delete).toMatchObject({
      'x-undocumented': true,
    });
    expect(doc.paths['/api/things/{projectId}']!.get!['x-undocumented']).toBeUndefined();
    expect(doc.paths['/api/openapi.json']!.get!['x-undocumented']).toBeUndefined();
    expect(doc['x-undocumented-routes']).toEqual(['DELETE /api/things/:projectId']);
  });

  it('turns the schemas a handler validates with into parameters and a request body', async () => {
    const doc = await fetchDocument(await serve({}));
    const get = doc.paths['/api/things/{projectId}']!.get!;
    expect(get.parameters).toEqual([
      {
        name: 'projectId',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
      },
      { name: 'label', in: 'query', required: false, schema: { type: 'string', maxLength: 20 } },
    ]);
    const post = doc.paths['/api/things']!.post!;
    expect(post['x-additive']).toBe(true);
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              jobId: { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER },
              note: { type: 'string' },
            },
            required: ['jobId'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(post.responses['200']).toEqual({
      description: 'The thing. Shape: docs/api.md#post-apithings',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              id: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
            },
            required: ['id'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(post.responses.default).toEqual({ $ref: '#/components/responses/Error' });
  });

  it('follows the same access rules as every other /api route', async () => {
    const base = await serve({ access: { token: 'sesame', secureCookies: false } });
    const refused = await fetch(`${base}/api/openapi.json`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ statusCode: 401 });
    const allowed = await fetch(`${base}/api/openapi.json`, {
      headers: { authorization: 'Bearer sesame' },
    });
    expect(allowed.status).toBe(200);
    const crossSite = await fetch(`${await serve({})}/api/openapi.json`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });
});

describe('openApiDocument', () => {
  it('names every route without docs, a regular-expression route too', () => {
    const doc = openApiDocument({
      layers: [
        { methods: ['HEAD', 'GET'], path: /^\/api\/raw$/ },
        { methods: ['POST'], path: '/api/things' },
      ],
      prefix: '/api',
      docs: [],
      version: '1',
    });
    expect(doc['x-undocumented-routes']).toEqual(['GET /^\\/api\\/raw$/', 'POST /api/things']);
    expect(Object.keys(doc.paths)).toEqual(['/api/things']);
  });

  it('names none when every route is described', () => {
    const doc = openApiDocument({
      layers: [{ methods: ['POST'], path: '/api/things' }],
      prefix: '/api',
      docs: things.docs,
      version: '1',
    });
    expect(doc['x-undocumented-routes']).toBeUndefined();
  });
});
