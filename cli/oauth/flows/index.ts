/**
 * The network side of the token engine. The engine imports this module only when the cache cannot
 * answer, so a cached `get-token` never loads openid-client.
 */
import * as oidc from 'openid-client';
import { TokenError } from '../errors.ts';
import { runBrowserFlow } from './browser-flow.ts';
import { runDeviceCodeFlow } from './device-code.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';
import { managedIdentityToken } from './managed-identity.ts';
import { audienceParameters, classify, configure, granted } from './oidc-client.ts';

/** Runs the context's flow and returns the new token; errors are TokenErrors. */
export async function issueToken(ctx: FlowContext): Promise<GrantedToken> {
  try {
    switch (ctx.flow) {
      case 'client-credentials':
        return await clientCredentials(ctx);
      case 'authorization-code':
        return await runBrowserFlow(ctx, await configure(ctx, ctx.clientSecret === undefined));
      case 'interactive':
        return await runBrowserFlow(ctx, await configure(ctx, true));
      case 'device-code':
        return await runDeviceCodeFlow(ctx, await configure(ctx, ctx.clientSecret === undefined));
      case 'managed-identity':
        return await managedIdentityToken(ctx);
    }
  } catch (err) {
    throw classify(err, ctx);
  }
}

/**
 * Redeems a refresh token (RFC 6749 §6). The answer may carry a rotated refresh token; when it
 * carries none, the old one stays valid and the caller keeps it.
 */
export async function refreshGrant(ctx: FlowContext, refreshToken: string): Promise<GrantedToken> {
  try {
    // Browser and device flows of public clients refresh as public clients too.
    const config = await configure(
      ctx,
      ctx.flow === 'interactive' || ctx.clientSecret === undefined,
    );
    // No `scope`: the refresh token carries what was granted, and asking for scopes it lacks
    // (offline_access, say) is an invalid_scope at some servers (RFC 6749 §6).
    return granted(
      await oidc.refreshTokenGrant(config, refreshToken, audienceParameters(ctx)),
      ctx,
    );
  } catch (err) {
    throw classify(err, ctx);
  }
}

async function clientCredentials(ctx: FlowContext): Promise<GrantedToken> {
  const assertion =
    ctx.federatedTokenFile !== undefined || ctx.profile.clientAuth === 'private_key_jwt';
  if (ctx.clientSecret === undefined && !assertion) {
    throw new TokenError(
      'auth_failed',
      `profile '${ctx.profile.name}' has no client secret stored, which client-credentials needs; store it with 'pipeline-summary profile add ${ctx.profile.name} … --client-secret-stdin' (or use --certificate PATH, or --federated-token-file PATH)`,
    );
  }
  const config = await configure(ctx, false);
  const params = audienceParameters(ctx);
  if (ctx.scopes.length > 0) params.scope = ctx.scopes.join(' ');
  return granted(await oidc.clientCredentialsGrant(config, params), ctx);
}
