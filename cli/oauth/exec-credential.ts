/**
 * get-token as a kubectl credential plugin (`-o exec-credential`), after the Kubernetes docs
 * "client-go credential plugins"
 * (https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins)
 * and the ExecCredential type (https://kubernetes.io/docs/reference/config-api/client-authentication.v1/).
 *
 * kubectl passes an ExecCredential in KUBERNETES_EXEC_INFO: its apiVersion is the version the
 * kubeconfig asked for, and client-go refuses an answer in any other ("exec plugin is configured
 * to use API version X, plugin returned version Y"); `spec.interactive` says whether the plugin
 * got kubectl's stdin, i.e. whether a person can answer a sign-in. The answer goes to stdout with
 * `status.token` and `status.expirationTimestamp` (RFC 3339), after which client-go reuses the
 * token until then. Imports nothing: the cached path (cached-token.ts) prints this too.
 */

/** The ExecCredential versions client-go still speaks (v1alpha1 was removed in Kubernetes 1.24). */
export const EXEC_CREDENTIAL_VERSIONS = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
] as const;

/** What kubectl told the plugin in KUBERNETES_EXEC_INFO (or the defaults without it). */
export interface ExecInfo {
  apiVersion: (typeof EXEC_CREDENTIAL_VERSIONS)[number];
  /**
   * False when kubectl gave the plugin no stdin (interactiveMode Never, or IfAvailable without a
   * terminal). Without KUBERNETES_EXEC_INFO — a person ran the command — true.
   */
  interactive: boolean;
}

/** The environment variable kubectl passes the request in. */
export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';

/**
 * Reads KUBERNETES_EXEC_INFO. Absent or empty: v1, interactive. Returns an error message (a
 * string) for a value that is not an ExecCredential of a version we answer in.
 */
export function readExecInfo(value: string | undefined): ExecInfo | string {
  if (value === undefined || value.trim() === '') {
    return { apiVersion: EXEC_CREDENTIAL_VERSIONS[0], interactive: true };
  }
  let parsed: { apiVersion?: unknown; kind?: unknown; spec?: { interactive?: unknown } };
  try {
    parsed = JSON.parse(value) as typeof parsed;
  } catch {
    return `${EXEC_INFO_ENV} is not JSON; it should hold the ExecCredential kubectl passes`;
  }
  const version = (EXEC_CREDENTIAL_VERSIONS as readonly unknown[]).includes(parsed?.apiVersion)
    ? (parsed.apiVersion as ExecInfo['apiVersion'])
    : undefined;
  if (!version || parsed.kind !== 'ExecCredential') {
    return `${EXEC_INFO_ENV} asks for ${String(parsed?.kind ?? 'no kind')} ${String(parsed?.apiVersion ?? '(no apiVersion)')}; get-token answers ExecCredential in ${EXEC_CREDENTIAL_VERSIONS.join(' or ')}: set users[].user.exec.apiVersion to one of them`;
  }
  return { apiVersion: version, interactive: parsed.spec?.interactive === true };
}

/** The ExecCredential for a token expiring at `expiresAt` (ISO 8601 UTC), ending in a newline. */
export function formatExecCredential(
  token: string,
  expiresAt: string,
  info: Pick<ExecInfo, 'apiVersion' | 'interactive'>,
): string {
  const credential = {
    apiVersion: info.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: info.interactive },
    status: { expirationTimestamp: expiresAt, token },
  };
  return JSON.stringify(credential, null, 2) + '\n';
}
