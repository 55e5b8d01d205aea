import * as oidc from 'openid-client';
import { TokenError } from '../errors.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';
import { audienceParameters, granted, requestScopes } from './oidc-client.ts';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Device authorization grant (RFC 8628): shows the verification URI and user code (and the
 * complete URI when the server offers one), then polls the token endpoint every `interval`
 * seconds (5 when unsaid), adding 5 s on each `slow_down` (§3.5), until approval, denial, or the
 * code's `expires_in` — Entra gives 15 minutes, time enough for MFA — or an explicit --timeout.
 * Each poll is a network wait bounded by the request timeout; the wait for the user is not.
 */
export async function runDeviceCodeFlow(
  ctx: FlowContext,
  config: oidc.Configuration,
): Promise<GrantedToken> {
  const extra = audienceParameters(ctx);
  const params: Record<string, string> = { ...extra };
  const scopes = requestScopes(ctx);
  if (scopes.length > 0) params.scope = scopes.join(' ');
  const started = ctx.clock.now();
  const authorization = await oidc.initiateDeviceAuthorization(config, params);
  const lines = [
    `To sign in, open ${authorization.verification_uri}`,
    `and enter the code:  ${authorization.user_code}`,
  ];
  if (authorization.verification_uri_complete) {
    lines.push(`(or open ${authorization.verification_uri_complete} to skip typing the code)`);
  }
  const minutes = Math.max(1, Math.round(authorization.expires_in / 60));
  lines.push(
    `Waiting for approval; the code expires in ${minutes} minute${minutes === 1 ? '' : 's'}…`,
  );
  ctx.notify(lines.join('\n'), 'action');

  let intervalMs = (authorization.interval ?? 5) * 1000;
  const expiresAt = started + authorization.expires_in * 1000;
  const lifetime = formatWait(authorization.expires_in * 1000);
  for (;;) {
    await ctx.sleep(intervalMs, ctx.signal);
    const now = ctx.clock.now();
    if (now >= expiresAt) {
      throw new TokenError(
        'timeout',
        `the device code expired before it was approved: approval did not arrive in ${lifetime}; run get-token -p ${ctx.profile.name} again and approve within ${minutes} minute${minutes === 1 ? '' : 's'}`,
      );
    }
    if (now >= ctx.deadline) {
      throw new TokenError(
        'timeout',
        `approval did not arrive within --timeout ${formatWait(ctx.explicitTimeoutMs ?? 0)}; run get-token -p ${ctx.profile.name} again, approve sooner, or raise --timeout`,
      );
    }
    try {
      const response = await oidc.genericGrantRequest(config, DEVICE_CODE_GRANT, {
        device_code: authorization.device_code,
        ...extra,
      });
      return granted(response, ctx);
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError && err.error === 'authorization_pending') continue;
      if (err instanceof oidc.ResponseBodyError && err.error === 'slow_down') {
        intervalMs += 5000;
        continue;
      }
      throw err;
    }
  }
}

/** "15 min", "90 s": how long a wait was, for messages. */
export function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
