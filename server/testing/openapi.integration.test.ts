// GET /api/openapi.json of the service as `serve --demo` composes it: every route the composition
// registers is described (a route added without a RouteDoc fails here), and the document holds
// together as OpenAPI 3.1 (unique operation ids, path parameters declared, JSON Schema 2020-12).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeService, type RunningService } from '../compose.ts';
import type { OpenApiDocument, OpenApiOperation } from '../http/openapi.ts';
import { silentLogger } from '../platform/logger.ts';
import { demoConfig } from './demo-config.ts';

/** The seed contract's routes (docs/api.md, "Seed routes"): each must stay in the document. */
const SEED_ROUTES = [
  'GET /api/health',
  'GET /api/version',
  'GET /api/events/pipelines',
  'GET /api/pipelines/summary',
  'GET /api/pipelines/{projectId}/details/{pipelineId}',
  'GET /api/settings',
  'POST /api/settings',
  'GET /api/groups/{path}',
  'GET /api/groups/{path}/subgroups',
  'GET /api/groups/parent/{parentId}',
  'POST /api/ai/analyse',
  'POST /api/ai/followup',
  'GET /api/ai/analyzed',
  'GET /api/ai/cache',
  'DELETE /api/ai/cache',
  'GET /api/ai/history',
  'GET /api/ai/system-prompt',
  'PUT /api/ai/system-prompt',
  'GET /api/jobtrace',
  'GET /api/avatar',
];

let service: RunningService;
let dataDir: string;
let doc: OpenApiDocument;
let operations: [string, OpenApiOperation][];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ps-openapi-'));
  service = await composeService(demoConfig(dataDir), { logger: silentLogger, env: {} });
  const res = await fetch(`${service.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
  operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]): [string, OpenApiOperation] => [
      `${m.toUpperCase()} ${p}`,
      op,
    ]),
  );
});

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the served OpenAPI description', () => {
  it('describes every route the service registers', () => {
    expect(doc['x-undocumented-routes']).toBeUndefined();
    expect(operations.filter(([, op]) => op['x-undocumented']).map(([key]) => key)).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(35);
  });

  it('keeps every seed route, marked as not additive', () => {
    const keys = new Map(operations);
    for (const route of SEED_ROUTES) {
      expect(keys.has(route), route).toBe(true);
      expect(keys.get(route)!['x-additive'], route).toBeUndefined();
    }
  });

  it('is OpenAPI 3.1 in shape', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Pipeline Summary Service');
    expect(typeof doc.info.version).toBe('string');
    const ids = operations.map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, op] of operations) {
      const [, template] = key.split(' ');
      const declared = (op.parameters ?? []) as { name: string; in: string; required: boolean }[];
      const inPath = [...template!.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        declared.filter((p) => p.in === 'path').map((p) => p.name),
        key,
      ).toEqual(inPath);
      expect(
        declared.every((p) => p.in !== 'path' || p.required),
        key,
      ).toBe(true);
      expect(op.responses.default, key).toEqual({ $ref: '#/components/responses/Error' });
      expect(Object.keys(op.responses['200'] as object), key).toEqual(['description', 'content']);
      expect(op.tags.length, key).toBe(1);
      expect(doc.tags.map((t) => t.name)).toContain(op.tags[0]);
    }
  });

  it('holds JSON Schema 2020-12 (OpenAPI 3.1’s dialect) wherever it has a schema', () => {
    const ajv = new Ajv2020({ strict: true });
    const schemas: unknown[] = [doc.components.schemas!.Error];
    for (const [, op] of operations) {
      for (const p of (op.parameters ?? []) as { schema: unknown }[]) schemas.push(p.schema);
      const body = op.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
      if (body) schemas.push(body.content['application/json']!.schema);
      const ok = op.responses['200'] as { content: Record<string, { schema?: unknown }> };
      for (const media of Object.values(ok.content)) if (media.schema) schemas.push(media.schema);
    }
    expect(schemas.length).toBeGreaterThan(30);
    for (const schema of schemas) expect(() => ajv.compile(schema as object)).not.toThrow();
  });
});
