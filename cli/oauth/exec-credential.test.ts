// get-token's ExecCredential against the Kubernetes type (testing/exec-credential-schema.ts,
// transcribed from https://kubernetes.io/docs/reference/config-api/client-authentication.v1/).
import { describe, expect, it } from 'vitest';
import { formatExecCredential, readExecInfo } from './exec-credential.ts';
import { execCredentialSchema } from './testing/exec-credential-schema.ts';

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

// What client-go puts in KUBERNETES_EXEC_INFO (the docs' example input, with cluster info).
const execInfo = (apiVersion: string, interactive: boolean) =>
  JSON.stringify({
    apiVersion,
    kind: 'ExecCredential',
    spec: {
      cluster: {
        server: 'https://172.17.4.100:6443',
        'certificate-authority-data': 'LS0t',
        config: { audience: '06e3fbd18de8' },
      },
      interactive,
    },
  });

describe('readExecInfo', () => {
  it('answers in the version kubectl asked for, and reads spec.interactive', () => {
    expect(readExecInfo(execInfo(V1BETA1, false))).toEqual({
      apiVersion: V1BETA1,
      interactive: false,
    });
    expect(readExecInfo(execInfo(V1, true))).toEqual({ apiVersion: V1, interactive: true });
  });

  it('without KUBERNETES_EXEC_INFO (a person ran it): v1 and interactive', () => {
    expect(readExecInfo(undefined)).toEqual({ apiVersion: V1, interactive: true });
    expect(readExecInfo('')).toEqual({ apiVersion: V1, interactive: true });
  });

  it('refuses a version client-go no longer speaks, or something that is not JSON', () => {
    expect(readExecInfo(execInfo('client.authentication.k8s.io/v1alpha1', true))).toMatch(
      /asks for ExecCredential client\.authentication\.k8s\.io\/v1alpha1; .*\/v1 or .*\/v1beta1/,
    );
    expect(readExecInfo('{oops')).toMatch(/KUBERNETES_EXEC_INFO is not JSON/);
  });
});

describe('formatExecCredential', () => {
  it('is a valid ExecCredential in v1 and v1beta1, with an RFC 3339 expiry', () => {
    for (const apiVersion of [V1, V1BETA1] as const) {
      const text = formatExecCredential('eyJ.token', '2030-01-02T03:04:05Z', {
        apiVersion,
        interactive: false,
      });
      expect(text.endsWith('\n')).toBe(true);
      const parsed = execCredentialSchema(apiVersion).parse(JSON.parse(text));
      expect(parsed.status).toEqual({
        token: 'eyJ.token',
        expirationTimestamp: '2030-01-02T03:04:05Z',
      });
    }
  });

  it('the schema refuses what client-go refuses (so the test above can fail)', () => {
    const good = JSON.parse(
      formatExecCredential('t', '2030-01-02T03:04:05Z', { apiVersion: V1, interactive: true }),
    ) as Record<string, unknown>;
    const v1 = execCredentialSchema(V1);
    expect(v1.safeParse(good).success).toBe(true);
    // Another version than the one asked for.
    expect(execCredentialSchema(V1BETA1).safeParse(good).success).toBe(false);
    // No status, no token, half a certificate pair, a timestamp that is not RFC 3339.
    const { status: _status, ...noStatus } = good;
    expect(v1.safeParse(noStatus).success).toBe(false);
    expect(v1.safeParse({ ...good, status: {} }).success).toBe(false);
    expect(v1.safeParse({ ...good, status: { clientCertificateData: 'x' } }).success).toBe(false);
    expect(
      v1.safeParse({ ...good, status: { token: 't', expirationTimestamp: '2030-01-02 03:04' } })
        .success,
    ).toBe(false);
    // spec.interactive is not optional.
    expect(v1.safeParse({ ...good, spec: {} }).success).toBe(false);
  });
});
