/**
 * The API's OpenAPI 3.1 description, built from what the router actually serves: every route the
 * /api router registered becomes an operation, and what a route validates (its zod schemas for
 * path, query and body) becomes its parameters and request body through `z.toJSONSchema`. Answers
 * are described by a schema where the code has one, else in words with a pointer to docs/api.md,
 * so nothing here is a hand-written copy of a shape the code already checks.
 */
import type Router from '@koa/router';
import { z } from 'zod';
import type { ErrorBody } from '../contract.ts';

/** The methods the service's routes answer (HEAD comes with GET and is not listed). */
export type RouteMethod = 'get' | 'post' | 'put' | 'delete';

/** A success answer: its media types and, when the code has one, its schema. */
export interface RouteResponse {
  description: string;
  /** Media types of the answer; `application/json` when absent. */
  contentTypes?: readonly string[];
  /** The zod schema the answer is built with, when there is one (most answers are typed only). */
  schema?: z.ZodType;
}

/** What the OpenAPI description says about one route, kept next to the handler that serves it. */
export interface RouteDoc {
  method: RouteMethod;
  /** The path as registered on the /api router, e.g. `/pipelines/:projectId/details/:pipelineId`. */
  path: string;
  /** The group it is listed under (Pipelines, Settings, AI analysis, …). */
  tag: string;
  summary: string;
  /** The heading of docs/api.md (its GitHub anchor) that describes the answer's shape. */
  docs: string;
  /** True for routes beyond the seed contract; clients of the seed API never need them. */
  additive?: boolean;
  /** The schema the handler validates its path parameters with. */
  params?: z.ZodObject;
  /** The schema the handler validates its query with. */
  query?: z.ZodObject;
  /** The schema the handler validates its JSON body with. */
  body?: z.ZodType;
  response: RouteResponse;
}

/** A route module's registration function with its route docs attached (see RouteModule). */
export type DescribedRoutes = ((router: Router) => void) & { docs: readonly RouteDoc[] };

/** Attaches a module's route docs to its registration function, so createApp can describe it. */
export function describedRoutes(
  docs: readonly RouteDoc[],
  register: (router: Router) => void,
): DescribedRoutes {
  return Object.assign(register, { docs });
}

/** What the document is built from: the router's layers and the docs of every route module. */
export interface OpenApiInput {
  /** The router's layers (`router.stack`): the routes that really exist. */
  layers: readonly { methods: readonly string[]; path: string | RegExp }[];
  /** The router's prefix (`/api`), which docs leave out of their paths. */
  prefix: string;
  docs: readonly RouteDoc[];
  /** The service's version (`GET /api/version`). */
  version: string;
  /** Other routers of the same app (the root one: `/cc.xml`, `/metrics`), each with its own prefix. */
  more?: readonly Pick<OpenApiInput, 'layers' | 'prefix' | 'docs'>[];
}

/** An OpenAPI 3.1 document (only the parts this service fills in are typed). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string } };
  tags: { name: string }[];
  paths: Record<string, Partial<Record<RouteMethod, OpenApiOperation>>>;
  components: Record<string, Record<string, unknown>>;
  security: Record<string, string[]>[];
  /** Routes the router serves that no route module describes (`GET /api/x`): a test fails on it. */
  'x-undocumented-routes'?: string[];
}

/** One operation of the document. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  /** Beyond the seed contract. */
  'x-additive'?: true;
  /** A route the router serves that no route module describes: a test fails on it. */
  'x-undocumented'?: true;
}

/** The error body every route answers with; checked against ErrorBody by the compiler. */
const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  error: z.string(),
  statusCode: z.number().int(),
  timestamp: z.string(),
});

const METHODS: readonly RouteMethod[] = ['get', 'post', 'put', 'delete'];

/**
 * Builds the document. Every layer of the router is in it: a route no module describes is listed
 * with `x-undocumented: true` and named in `x-undocumented-routes` (a test refuses both), so the
 * document cannot silently miss a route.
 */
export function openApiDocument(input: OpenApiInput): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  const undescribed: string[] = [];
  for (const routerInput of [input, ...(input.more ?? [])]) {
    const { prefix } = routerInput;
    const byKey = new Map(
      routerInput.docs.map((doc) => [`${doc.method} ${prefix}${doc.path}`, doc]),
    );
    for (const layer of routerInput.layers) {
      for (const method of METHODS) {
        if (!layer.methods.includes(method.toUpperCase())) continue;
        const doc = byKey.get(`${method} ${String(layer.path)}`);
        if (!doc) undescribed.push(`${method.toUpperCase()} ${String(layer.path)}`);
        // A route registered with a regular expression has no path template to list it under.
        if (typeof layer.path !== 'string') continue;
        if (doc) tags.add(doc.tag);
        (paths[openApiPath(layer.path)] ??= {})[method] = doc
          ? operation(doc)
          : undocumented(method, layer.path, prefix);
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pipeline Summary Service',
      version: input.version,
      description:
        'Live summaries of a GitLab group’s CI pipelines, job logs and AI analysis of failed jobs. ' +
        'Every route, with the shapes of its answers, is described in docs/api.md of the repository.',
      license: { name: 'MIT' },
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
      responses: {
        Error: {
          description:
            'Any error, on every route: 400 bad input, 401 GitLab token or access token, 403 refused ' +
            'by the security checks or by GitLab, 404, 413, 415, 429, 502/504 GitLab or the AI ' +
            'provider, 503 at a capacity limit (with Retry-After). See docs/api.md#errors.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Only when the service is shared on a network (a non-loopback --host or a --public-url); ' +
            'on loopback no token is needed. See docs/security.md.',
        },
      },
    },
    // Either no credentials (loopback) or the access token (shared on a network).
    security: [{}, { accessToken: [] }],
    ...(undescribed.length > 0 ? { 'x-undocumented-routes': undescribed } : {}),
  };
}

function operation(doc: RouteDoc): OpenApiOperation {
  const parameters = [...parametersOf(doc.params, 'path'), ...parametersOf(doc.query, 'query')];
  const contentTypes = doc.response.contentTypes ?? ['application/json'];
  const responseSchema = doc.response.schema && jsonSchema(doc.response.schema, 'output');
  const content = Object.fromEntries(
    contentTypes.map((type) => [
      type,
      responseSchema && type === 'application/json' ? { schema: responseSchema } : {},
    ]),
  );
  return {
    operationId: operationId(doc.method, doc.path),
    summary: doc.summary,
    tags: [doc.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(doc.body, 'input') } },
          },
        }
      : {}),
    responses: {
      '200': { description: `${doc.response.description} Shape: docs/api.md#${doc.docs}`, content },
      default: { $ref: '#/components/responses/Error' },
    },
    ...(doc.additive ? { 'x-additive': true as const } : {}),
  };
}

function undocumented(method: RouteMethod, path: string, prefix: string): OpenApiOperation {
  return {
    operationId: operationId(method, path.slice(prefix.length)),
    summary: 'Not described',
    description: 'This route has no RouteDoc in its route module.',
    tags: [],
    responses: { default: { $ref: '#/components/responses/Error' } },
    'x-undocumented': true,
  };
}

/** One parameter per property of a path or query schema, as the handler reads it (a string). */
function parametersOf(schema: z.ZodObject | undefined, where: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      // OpenAPI requires every path parameter to be required.
      required: where === 'path' || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect). Requests are described as sent
 * (`input`: a query id is a string of digits), answers as served (`output`). Refinements that JSON
 * Schema cannot say (a group path's segment rules, a safe-integer id) stay with the handler.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

/** `/pipelines/:projectId/details/:pipelineId` → `/api/pipelines/{projectId}/details/{pipelineId}`. */
function openApiPath(routerPath: string): string {
  return routerPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** `get` + `/pipelines/:projectId/details/:pipelineId` → `getPipelinesDetails`. */
function operationId(method: RouteMethod, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '' && !/^[:*]/.test(segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
