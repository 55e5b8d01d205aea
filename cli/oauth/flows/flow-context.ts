import type { Clock } from '../../../server/platform/clock.ts';
import type { FlowName, Profile } from '../profiles.ts';

/** Everything a flow needs, handed in by the engine (no globals, so the tray can run flows too). */
export interface FlowContext {
  profile: Profile;
  flow: FlowName;
  /** Scopes to ask for (already normalised). */
  scopes: string[];
  /** The client secret, when the profile has one stored. */
  clientSecret?: string;
  /** The certificate and its private key (PEM), for profiles using private_key_jwt. */
  clientCertificate?: string;
  /** A file with a JWT from another issuer to send as the client assertion (federation). */
  federatedTokenFile?: string;
  /** The config root (the discovery cache lives there). */
  home: string;
  /** Aborts when --timeout is reached (reason: a TokenError 'timeout') or the caller cancels. */
  signal: AbortSignal;
  /**
   * Clock time (ms) at which the whole operation times out: --timeout when given; without it,
   * Infinity for user sign-ins, which the flow bounds by the code's lifetime instead.
   */
  deadline: number;
  /** The --timeout the user gave, if any (messages quote it). */
  explicitTimeoutMs?: number;
  /** Longest wait for one answer from the server (default 60 s, or --timeout). */
  requestTimeoutMs: number;
  /** What the last request went to, for messages and the raw token_type; flows fill it in. */
  trace: RequestTrace;
  clock: Clock;
  fetch: typeof globalThis.fetch;
  /** The environment the managed-identity flow reads its endpoint from (IDENTITY_ENDPOINT, …). */
  env: NodeJS.ProcessEnv;
  /** Opens a URL in the user's browser; failures are reported, never fatal (the URL is printed). */
  openBrowser: (url: string) => Promise<void>;
  /** Tells the user something: 'action' lines ask them to act (URL, code), 'info' lines inform. */
  notify: (line: string, kind?: NoticeKind) => void;
  /** Waits between device-code polls; tests pass a faster one. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The last endpoint called and the raw token_type it answered (openid-client lowercases it). */
export interface RequestTrace {
  /** e.g. "the token endpoint https://…/token". */
  endpoint?: string;
  tokenType?: string;
  /**
   * The redirect URI the authorization request carried, sent verbatim in the code exchange:
   * openid-client derives it from the callback URL, which adds a `/` to `http://localhost:port`.
   */
  redirectUri?: string;
}

/** 'action': the user must do something (open a URL, enter a code); 'info': a notice. */
export type NoticeKind = 'action' | 'info';

/** A token endpoint's answer, as the engine caches it. */
export interface GrantedToken {
  accessToken: string;
  tokenType: string;
  scope?: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds, as the server said; absent when it did not. */
  expiresIn?: number;
}
