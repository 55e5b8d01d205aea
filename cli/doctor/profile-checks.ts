/**
 * The profile and what it signs in with: the profile must load, and a client-credentials profile
 * must have its credential — a client secret, a certificate not yet expired, or a federated token
 * file holding a JWT not yet expired. User sign-ins (public clients) and managed identities need
 * no secret of ours.
 */
import { nodeFsPromises } from '../../server/platform/builtins.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { readCertificateKey } from '../oauth/flows/client-assertion.ts';
import { managedIdentityEndpoint } from '../oauth/flows/managed-identity.ts';
import { decodeJwt, relativeTime } from '../oauth/jwt.ts';
import { getProfile, isUserFlow, issuerOf } from '../oauth/profiles.ts';
import { fail, pass, skip, type CheckResult, type DoctorContext } from './check.ts';

/** The profile loads, and what it is. */
export async function profileCheck(ctx: DoctorContext): Promise<CheckResult> {
  const name = ctx.options.profile;
  try {
    ctx.profile = await getProfile(ctx.options.home, name);
  } catch (err) {
    const message = (err as Error).message;
    const fix = /not found/.test(message)
      ? `add it: pipeline-summary profile add ${name} --issuer URL --client-id ID (or pass -p NAME; 'pipeline-summary profile list' shows them)`
      : 'fix or remove the profiles file named above';
    return fail('profile', message.replace(/\. Run .*$/, ''), fix);
  }
  const p = ctx.profile;
  const flow = p.flow ?? 'client-credentials';
  const where =
    flow === 'managed-identity'
      ? `Azure managed identity (${p.managedIdentityClientId ? `user-assigned ${p.managedIdentityClientId}` : 'system-assigned'})`
      : `${issuerOf(p) ?? p.tokenEndpoint}, client ${p.clientId}`;
  const scopes = p.scopes.length > 0 ? `, scopes '${p.scopes.join(' ')}'` : '';
  return pass('profile', `profile '${name}': ${flow} at ${where}${scopes}`);
}

/** The credential the profile's flow needs is there and usable. */
export async function secretsCheck(ctx: DoctorContext): Promise<CheckResult> {
  const p = ctx.profile;
  if (!p) return skip('secrets', 'secrets: no profile to check');
  const flow = p.flow ?? 'client-credentials';
  if (flow === 'managed-identity') {
    const endpoint = managedIdentityEndpoint(ctx.edges.env);
    return pass(
      'secrets',
      `secrets: none needed (the managed identity's token comes from ${endpoint.kind === 'imds' ? 'IMDS' : 'IDENTITY_ENDPOINT'})`,
    );
  }
  if (ctx.store instanceof Error) {
    return fail(
      'secrets',
      `secrets: cannot open the secret store: ${ctx.store.message}`,
      'see the secret-store line below',
    );
  }
  const store = ctx.store;
  const now = ctx.edges.clock.now();
  const federated =
    p.federatedTokenFile ??
    (p.clientAuth !== 'private_key_jwt' ? ctx.edges.env.AZURE_FEDERATED_TOKEN_FILE : undefined);
  if (p.clientAuth === 'private_key_jwt') {
    const pem = await store.get(SECRET_ACCOUNTS.clientCertificate(p.name));
    const readd = `pipeline-summary profile add ${p.name} … --certificate PATH`;
    if (!pem) return fail('secrets', `secrets: no certificate stored in ${store.backend}`, readd);
    const cert = readCertificateKey(pem, `the certificate of '${p.name}'`);
    const validTo = Date.parse(cert.validTo);
    if (validTo <= now) {
      return fail(
        'secrets',
        `secrets: the certificate ${cert.subject} expired ${cert.validTo}`,
        readd,
      );
    }
    return pass(
      'secrets',
      `secrets: certificate ${cert.subject} in ${store.backend}, valid until ${cert.validTo} (${relativeTime(validTo, now)})`,
    );
  }
  const secret = await store.get(SECRET_ACCOUNTS.clientSecret(p.name));
  if (secret !== undefined) {
    return pass('secrets', `secrets: client secret stored in ${store.backend}`);
  }
  if (isUserFlow(flow)) {
    return pass('secrets', `secrets: none needed (${flow} sign-in as a public client)`);
  }
  if (federated) return federatedCheck(federated, now);
  return fail(
    'secrets',
    `secrets: no client secret stored for '${p.name}' in ${store.backend}, and client-credentials needs one`,
    `echo SECRET | pipeline-summary profile add ${p.name} … --client-secret-stdin (or --certificate PATH, or --federated-token-file PATH)`,
  );
}

async function federatedCheck(file: string, now: number): Promise<CheckResult> {
  let text: string;
  try {
    text = await nodeFsPromises().readFile(file, 'utf8');
  } catch (err) {
    return fail(
      'secrets',
      `secrets: cannot read the federated token file ${file}: ${(err as Error).message}`,
      "check the path (the profile's --federated-token-file, or $AZURE_FEDERATED_TOKEN_FILE)",
    );
  }
  let exp: unknown;
  try {
    exp = decodeJwt(text).claims.exp;
  } catch (err) {
    return fail(
      'secrets',
      `secrets: ${file} does not hold a JWT (${(err as Error).message})`,
      'point the profile at the token file your platform writes (e.g. the projected service account token)',
    );
  }
  if (typeof exp === 'number' && exp * 1000 <= now) {
    return fail(
      'secrets',
      `secrets: the federated token in ${file} expired ${relativeTime(exp * 1000, now)}`,
      'the platform should rotate it: check the pod or CI job that writes it',
    );
  }
  const left = typeof exp === 'number' ? `, expires ${relativeTime(exp * 1000, now)}` : '';
  return pass('secrets', `secrets: federated token file ${file}${left}`);
}
