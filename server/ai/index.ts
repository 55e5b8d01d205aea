/**
 * AI analysis of failed jobs (DESIGN §4): log distillation, providers (offline, OpenAI-compatible,
 * Anthropic), the SQLite analysis store and the /api/ai routes.
 */
export { aiConfigFrom, type AiConfig, type ProviderName } from './config.ts';
export { aiRoutes } from './routes.ts';
export {
  createAiService,
  type AiService,
  type AiServiceDeps,
  type AnswerEvent,
  type PipelineAnalysisResponse,
  type ProviderStatus,
  type ProviderUpdate,
} from './ai-service.ts';
export { AnalysisStore } from './store/analysis-store.ts';
export { distillLog, type DistilledLog, type DistillOptions } from './distill/log-distiller.ts';
