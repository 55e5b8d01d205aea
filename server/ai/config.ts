import type { AiProviderName } from '../contract.ts';
import { AppError } from '../platform/errors.ts';

/** The AI providers the service can use (named in the public contract). */
export type ProviderName = AiProviderName;

/** Every provider name, in the order the settings UI lists them. */
export const PROVIDER_NAMES: readonly ProviderName[] = ['offline', 'openai', 'anthropic'];

/**
 * AI configuration from flags and environment. Unset fields fall back to settings saved from the
 * dashboard, then to the provider's defaults (see DEFAULTS).
 */
export interface AiConfig {
  provider?: ProviderName;
  /** Chat-completions base URL, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  baseUrl?: string;
  model?: string;
  /** Never logged, never written to plain files. */
  apiKey?: string;
  /** Longest wait for a provider answer (default 120 s). */
  timeoutMs?: number;
  /** Retries of transient provider errors (default 1). */
  maxRetries?: number;
  /** Character budget of the distilled log sent to a model (default 24,000). */
  budgetChars?: number;
  /** Answer with the offline analyser, said plainly, when the provider is unreachable (default true). */
  fallbackToOffline?: boolean;
}

/** Default base URL and model per remote provider. */
export const DEFAULTS: Record<
  Exclude<ProviderName, 'offline'>,
  { baseUrl: string; model: string }
> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' },
};

/** Parses a provider name; `ollama` and `openai-compatible` are accepted as `openai`. */
export function parseProviderName(value: string): ProviderName {
  const v = value.trim().toLowerCase();
  if (v === 'openai-compatible' || v === 'ollama') return 'openai';
  if ((PROVIDER_NAMES as readonly string[]).includes(v)) return v as ProviderName;
  throw new AppError(
    'bad_request',
    `AI provider must be one of ${PROVIDER_NAMES.join(', ')} (got '${value}')`,
  );
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new AppError('bad_request', `${name} must be a positive integer (got '${value}')`);
  }
  return n;
}

/**
 * Reads `AI_PROVIDER` (`offline` default | `openai` | `anthropic`), `AI_BASE_URL`, `AI_MODEL`,
 * `AI_API_KEY` and `AI_TIMEOUT_MS`; `flags` beat the environment. `AI_PROVIDER=ollama` means
 * `openai` at Ollama's local address unless `AI_BASE_URL` says otherwise.
 */
export function aiConfigFrom(env: NodeJS.ProcessEnv, flags: Partial<AiConfig> = {}): AiConfig {
  const config: AiConfig = {};
  const rawProvider = env.AI_PROVIDER?.trim();
  if (rawProvider) {
    config.provider = parseProviderName(rawProvider);
    if (rawProvider.toLowerCase() === 'ollama') config.baseUrl = 'http://127.0.0.1:11434/v1';
  }
  if (env.AI_BASE_URL?.trim()) config.baseUrl = env.AI_BASE_URL.trim();
  if (env.AI_MODEL?.trim()) config.model = env.AI_MODEL.trim();
  if (env.AI_API_KEY?.trim()) config.apiKey = env.AI_API_KEY.trim();
  const timeout = positiveInt('AI_TIMEOUT_MS', env.AI_TIMEOUT_MS);
  if (timeout !== undefined) config.timeoutMs = timeout;
  for (const [key, value] of Object.entries(flags) as [keyof AiConfig, unknown][]) {
    if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  }
  if (config.baseUrl !== undefined) config.baseUrl = normaliseBaseUrl(config.baseUrl);
  return config;
}

/** Checks a provider base URL is http(s) and drops a trailing slash. */
export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new AppError('bad_request', `AI base URL is not a valid URL: '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('bad_request', `AI base URL must use http or https: '${value}'`);
  }
  if (url.username || url.password) {
    throw new AppError('bad_request', 'AI base URL must not contain credentials; use the API key');
  }
  return url.toString().replace(/\/+$/, '');
}
