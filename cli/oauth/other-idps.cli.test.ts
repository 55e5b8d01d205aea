// get-token against the device flows of Google and GitLab, through the bundled CLI. Google answers
// `verification_url` where RFC 8628 says `verification_uri`
// (https://developers.google.com/identity/protocols/oauth2/limited-input-device#step-2:-handle-the-authorization-server-response);
// GitLab serves the device grant at /oauth/authorize_device but its discovery document does not
// list it (https://docs.gitlab.com/api/oauth2/#device-authorization-grant-flow), so the profile
// names it with --device-authorization-endpoint.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-bundle.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({ bundle: true });
let server: http.Server;
let base: string;
/** How the device endpoint answers: Google's shape, or a failure. */
let deviceAnswer: 'google' | 'fail';
let polls: number;
/** The form of the last device authorization request. */
let deviceRequest: URLSearchParams | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.url === '/.well-known/openid-configuration') {
        // As GitLab 17 publishes it: no device_authorization_endpoint.
        return json(200, {
          issuer: base,
          authorization_endpoint: `${base}/oauth/authorize`,
          token_endpoint: `${base}/oauth/token`,
          jwks_uri: `${base}/oauth/discovery/keys`,
        });
      }
      if (req.url === '/oauth/authorize_device') {
        deviceRequest = new URLSearchParams(body);
        if (deviceAnswer === 'fail') return json(502, { error: 'bad_gateway' });
        return json(200, {
          device_code: 'dc-google',
          user_code: 'GQVQ-JKEC',
          verification_url: 'https://www.google.com/device',
          expires_in: 1800,
          interval: 1,
        });
      }
      if (req.url === '/oauth/token') {
        polls++;
        if (polls < 2) return json(428, { error: 'authorization_pending' });
        return json(200, {
          access_token: 'ya29.device-token',
          token_type: 'Bearer',
          expires_in: 3599,
        });
      }
      json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  polls = 0;
  deviceAnswer = 'google';
});

async function deviceProfile() {
  const add = await runCli(
    bed.bundle.pipelineSummary,
    [
      'profile',
      'add',
      'tv',
      '--issuer',
      base,
      '--device-authorization-endpoint',
      `${base}/oauth/authorize_device`,
      '--client-id',
      'tv-client',
      '--scope',
      'read_api',
      '--flow',
      'device-code',
    ],
    { env: bed.env() },
  );
  expect(add.code, add.stderr).toBe(0);
}

describe('device flows beyond Entra', () => {
  it('honours an explicit device endpoint next to --issuer and reads Google’s verification_url', async () => {
    await deviceProfile();
    const run = await runCli(bed.bundle.getToken, ['-p', 'tv'], { env: bed.env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('To sign in, open https://www.google.com/device');
    expect(run.stdout.trim()).toBe('ya29.device-token');
    // MSAL's extra scopes are for Entra only: Google refuses offline_access, GitLab does not know it.
    expect(deviceRequest?.get('scope')).toBe('read_api');
  });

  it('names the endpoint that failed', async () => {
    await deviceProfile();
    deviceAnswer = 'fail';
    const run = await runCli(bed.bundle.getToken, ['-p', 'tv'], { env: bed.env() });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(
      `the device authorization endpoint ${base}/oauth/authorize_device is failing (HTTP 502)`,
    );
  });
});
