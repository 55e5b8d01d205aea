/**
 * The Kubernetes ExecCredential type as a zod schema, transcribed from the reference
 * "Client Authentication (v1)" (https://kubernetes.io/docs/reference/config-api/client-authentication.v1/)
 * and "(v1beta1)" (…/client-authentication.v1beta1/), i.e. client-go's
 * staging/src/k8s.io/client-go/pkg/apis/clientauthentication/v1/types.go, plus the checks
 * client-go makes on a plugin's answer (plugin/pkg/client/auth/exec/exec.go, refreshCredsLocked):
 * the apiVersion must be the one asked for, `status` must be present, and it must hold a token or
 * a certificate + key pair. Tests validate get-token's `-o exec-credential` output against it.
 */
import { z } from 'zod';

/** meta/v1.Time: RFC 3339 in UTC or with an offset, whole seconds (how apimachinery writes it). */
const TimeSchema = z.iso.datetime({ offset: true, precision: 0 });

/**
 * Cluster (only with provideClusterInfo): the fields shadow clientcmd's Cluster, hyphenated as
 * in a kubeconfig; `config` is the cluster's exec extension, any JSON.
 */
export const ExecClusterSchema = z
  .object({
    server: z.string(),
    'tls-server-name': z.string().optional(),
    'insecure-skip-tls-verify': z.boolean().optional(),
    /** []byte: base64 in JSON. */
    'certificate-authority-data': z.base64().optional(),
    'proxy-url': z.string().optional(),
    'disable-compression': z.boolean().optional(),
    config: z.unknown().optional(),
  })
  .strict();

/** ExecCredentialSpec: `cluster` (optional) and `interactive` (a bool without omitempty). */
export const ExecCredentialSpecSchema = z
  .object({ cluster: ExecClusterSchema.optional(), interactive: z.boolean() })
  .strict();

/**
 * ExecCredentialStatus. Every field is `omitempty` in the Go type; client-go then requires a
 * token or both certificate fields. (v1 adds authProxyHeaders in newer releases.)
 */
export const ExecCredentialStatusSchema = z
  .object({
    expirationTimestamp: TimeSchema.optional(),
    token: z.string().optional(),
    clientCertificateData: z.string().optional(),
    clientKeyData: z.string().optional(),
    authProxyHeaders: z.record(z.string(), z.string()).optional(),
  })
  .strict()
  .refine((s) => !!s.token || !!s.clientCertificateData || !!s.clientKeyData, {
    message: "exec plugin didn't return a token or cert/key pair",
  })
  .refine((s) => !s.clientCertificateData === !s.clientKeyData, {
    message: 'exec plugin returned only certificate or key, not both',
  });

/**
 * A plugin's answer in `apiVersion` (client.authentication.k8s.io/v1 or /v1beta1): TypeMeta,
 * `spec`, and the `status` client-go insists on ("exec plugin didn't return a status field").
 */
export function execCredentialSchema(
  apiVersion: 'client.authentication.k8s.io/v1' | 'client.authentication.k8s.io/v1beta1',
) {
  return z
    .object({
      apiVersion: z.literal(apiVersion, {
        message: `exec plugin is configured to use API version ${apiVersion}`,
      }),
      kind: z.literal('ExecCredential'),
      spec: ExecCredentialSpecSchema,
      status: ExecCredentialStatusSchema,
    })
    .strict();
}
