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
  /** Aborts when --timeout is reached (reason: a TokenError 'timeout') or the caller cancels. */
  signal: AbortSignal;
  /** Wall-clock time (ms) at which the whole operation times out. */
  deadline: number;
  clock: Clock;
  fetch: typeof globalThis.fetch;
  /** Opens a URL in the user's browser; failures are reported, never fatal (the URL is printed). */
  openBrowser: (url: string) => Promise<void>;
  /** Tells the user something: 'action' lines ask them to act (URL, code), 'info' lines inform. */
  notify: (line: string, kind?: NoticeKind) => void;
  /** Waits between device-code polls; tests pass a faster one. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
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
