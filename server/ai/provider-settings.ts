import type { ProviderStatus, ProviderUpdateRequest } from '../contract.ts';
import type { Logger } from '../platform/logger.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../platform/secret-store.ts';
import {
  DEFAULTS,
  normaliseBaseUrl,
  PROVIDER_NAMES,
  type AiConfig,
  type ProviderName,
} from './config.ts';
import { answeringAs, withOfflineFallback } from './providers/fallback-provider.ts';
import { offlineProvider } from './providers/offline-provider.ts';
import type { AnsweringProvider } from './providers/provider.ts';
import { createRemoteProvider } from './providers/sdk-provider.ts';
import type { AnalysisStore } from './store/analysis-store.ts';

/** PUT /api/ai/provider input; `apiKey: null` deletes the stored key. */
export type ProviderUpdate = ProviderUpdateRequest;

/** The provider choice: which provider answers, and how its key is resolved and changed. */
export interface ProviderSettings {
  /** The provider to ask, built once per settings version (with the offline fallback if on). */
  provider(): Promise<AnsweringProvider>;
  /** True when the built-in analyser is the configured provider. */
  isOffline(): boolean;
  status(): Promise<ProviderStatus>;
  update(update: ProviderUpdate): Promise<ProviderStatus>;
}

/** What provider settings need. */
export interface ProviderSettingsDeps {
  store: AnalysisStore;
  config: AiConfig;
  logger: Logger;
  /** Where the provider API key is kept; without one a key set from the dashboard lasts until restart. */
  secretStore?: SecretStore | undefined;
  /** Injected into the AI SDK (tests, proxies). */
  fetch?: typeof fetch | undefined;
}

const SETTING = {
  provider: 'ai.provider',
  model: 'ai.model',
  baseUrl: 'ai.base_url',
} as const;

interface Choice {
  provider: ProviderName;
  model: string | undefined;
  baseUrl: string | undefined;
}

/**
 * Provider settings: env/flags that name a provider win at startup, otherwise the dashboard's
 * saved choice applies; the key comes from the environment, the secret store or memory.
 */
export function createProviderSettings(deps: ProviderSettingsDeps): ProviderSettings {
  const { store, config, logger, secretStore } = deps;
  const memoryKeys = new Map<ProviderName, string>();
  const pinned = config.provider !== undefined;
  let choice: Choice = pinned
    ? { provider: config.provider!, model: config.model, baseUrl: config.baseUrl }
    : {
        provider: (store.getSetting(SETTING.provider) as ProviderName | undefined) ?? 'offline',
        model: store.getSetting(SETTING.model),
        baseUrl: store.getSetting(SETTING.baseUrl),
      };
  if (!PROVIDER_NAMES.includes(choice.provider)) choice.provider = 'offline';
  let envKeyApplies = pinned;
  // Every change of provider, model, URL or key starts a new version; the provider built for a
  // version is reused by every request until the next change.
  let version = 0;
  let built: { version: number; provider: Promise<AnsweringProvider> } | undefined;

  async function resolveKey(
    provider: ProviderName,
  ): Promise<{ key: string | undefined; source: ProviderStatus['apiKeySource'] }> {
    if (provider === 'offline') return { key: undefined, source: null };
    if (envKeyApplies && config.apiKey && provider === config.provider) {
      return { key: config.apiKey, source: 'environment' };
    }
    if (secretStore) {
      try {
        const key = await secretStore.get(SECRET_ACCOUNTS.aiApiKey(provider));
        if (key) return { key, source: 'secret-store' };
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'secret store unavailable for the AI key');
      }
    }
    const key = memoryKeys.get(provider);
    return key ? { key, source: 'memory' } : { key: undefined, source: null };
  }

  async function build(c: Choice): Promise<AnsweringProvider> {
    if (c.provider === 'offline') return answeringAs(offlineProvider, logger);
    const { key } = await resolveKey(c.provider);
    const remote = createRemoteProvider({
      name: c.provider,
      baseUrl: c.baseUrl ?? DEFAULTS[c.provider].baseUrl,
      model: c.model ?? DEFAULTS[c.provider].model,
      apiKey: key,
      timeoutMs: config.timeoutMs ?? 120_000,
      maxRetries: config.maxRetries ?? 1,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    return config.fallbackToOffline === false
      ? answeringAs(remote, logger)
      : withOfflineFallback(remote, offlineProvider, logger);
  }

  async function status(): Promise<ProviderStatus> {
    const c = choice;
    const key = await resolveKey(c.provider);
    return {
      provider: c.provider,
      model: c.provider === 'offline' ? '' : (c.model ?? DEFAULTS[c.provider].model),
      baseUrl: c.provider === 'offline' ? '' : (c.baseUrl ?? DEFAULTS[c.provider].baseUrl),
      apiKeySet: key.key !== undefined,
      apiKeySource: key.source,
      secretStore: secretStore?.backend ?? null,
      pinnedByEnvironment: pinned,
      fallbackToOffline: config.fallbackToOffline !== false,
      providers: PROVIDER_NAMES,
    };
  }

  return {
    provider() {
      if (built?.version !== version) {
        const provider = build(choice);
        built = { version, provider };
        // A failed build (secret store hiccup) is retried by the next request.
        const mine = built;
        provider.catch(() => {
          if (built === mine) built = undefined;
        });
      }
      return built.provider;
    },

    isOffline: () => choice.provider === 'offline',

    status,

    async update(update) {
      const provider = update.provider ?? choice.provider;
      const changed = provider !== choice.provider;
      const next: Choice = {
        provider,
        // Another provider's model and URL make no sense for this one.
        model:
          update.model !== undefined
            ? update.model.trim() || undefined
            : changed
              ? undefined
              : choice.model,
        baseUrl:
          update.baseUrl !== undefined
            ? update.baseUrl.trim() === ''
              ? undefined
              : normaliseBaseUrl(update.baseUrl)
            : changed
              ? undefined
              : choice.baseUrl,
      };
      if (update.apiKey !== undefined && provider !== 'offline') {
        const account = SECRET_ACCOUNTS.aiApiKey(provider);
        if (update.apiKey === null || update.apiKey === '') {
          memoryKeys.delete(provider);
          if (secretStore) await secretStore.delete(account);
        } else if (secretStore) {
          await secretStore.set(account, update.apiKey);
          memoryKeys.delete(provider);
        } else {
          memoryKeys.set(provider, update.apiKey);
        }
        // A key chosen in the dashboard replaces the environment's.
        if (provider === config.provider) envKeyApplies = false;
      }
      store.setSettings({
        [SETTING.provider]: next.provider,
        [SETTING.model]: next.model,
        [SETTING.baseUrl]: next.baseUrl,
      });
      choice = next;
      version += 1;
      logger.info(
        { provider: next.provider, model: next.model, baseUrl: next.baseUrl },
        'AI provider settings changed',
      );
      return status();
    },
  };
}
