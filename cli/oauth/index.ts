/**
 * The token engine's public surface, for the Electron tray and the service: get a token for a
 * profile, list profiles, read what is cached, and open the product's secret store. Everything
 * here takes its edges (clock, fetch, browser, secret store, notices) as arguments; nothing writes
 * to stdout or exits the process.
 */
export {
  DEFAULT_TIMEOUT_MS,
  forgetProfileTokens,
  getToken,
  listProfiles,
  readCachedToken,
  refreshToken,
  REFRESH_MARGIN_MS,
  type GetTokenOptions,
  type TokenEngineEdges,
  type TokenResult,
  type TokenSource,
} from './engine.ts';
export { isTokenError, TokenError, type TokenErrorCode } from './errors.ts';
export type { NoticeKind } from './flows/flow-context.ts';
export { FLOWS, type FlowName, type Profile } from './profiles.ts';
export {
  openSecretStore,
  SECRET_STORE_ENV,
  type OpenSecretStoreOptions,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
export type { CachedToken } from './token-cache.ts';
export { formatTokenResponse, type OutputFormat, type TokenResponse } from './token-response.ts';
