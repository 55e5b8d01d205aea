// `pipeline-summary doctor` and `get-token doctor` through the shipped bundle, against the local
// OpenID provider, a loopback GitLab stand-in for GET /api/v4/user, and the real file secret store
// read back by a fresh process of the same binary.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../oauth/testing/cli-bundle.ts';
import { addProfile, freePort } from '../oauth/testing/fixtures.ts';
import { TEST_CLIENTS } from '../oauth/testing/test-provider.ts';
import { useTokenTestBed } from '../oauth/testing/token-test-bed.ts';

const bed = useTokenTestBed({ provider: true, bundle: true });
let gitlab: { url: string; close: () => Promise<void> };

/** GET /api/v4/user as GitLab answers it: the user for a good token, 401 for any other. */
async function startGitLabUser(token: string) {
  const server = http.createServer((req, res) => {
    const ok = req.url === '/api/v4/user' && req.headers['private-token'] === token;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? { id: 1, username: 'alice' } : { message: '401 Unauthorized' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  gitlab = await startGitLabUser('glpat-good');
});
afterAll(() => gitlab.close());

const env = (extra: Record<string, string> = {}) => bed.env({ GITLAB_URL: gitlab.url, ...extra });

describe('doctor through the CLI', () => {
  it('pipeline-summary doctor: every check passes, exit 0, one ✓ line each', async () => {
    await bed.serviceProfile('svc');
    // A token in the cache, so the cache check opens a real one.
    expect((await runCli(bed.bundle.getToken, ['-p', 'svc'], { env: env() })).code).toBe(0);
    const run = await runCli(bed.bundle.pipelineSummary, ['doctor', '-p', 'svc'], {
      env: env({ GITLAB_TOKEN: 'glpat-good' }),
    });
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    expect(
      lines.every((l) => l.startsWith('✓ ')),
      run.stdout,
    ).toBe(true);
    expect(lines).toEqual([
      `✓ profile 'svc': client-credentials at ${bed.provider.issuer}, client service, scopes 'api:read'`,
      `✓ secrets: client secret stored in file (${path.join(bed.home, 'secrets', 'secrets.json')})`,
      expect.stringMatching(
        /^✓ issuer discovery http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration: HTTP 200 in \d+ ms, direct \(no proxy set\)$/,
      ),
      expect.stringMatching(
        /^✓ clock: within \d s of http:\/\/127\.0\.0\.1:\d+ \(its Date header\)$/,
      ),
      `✓ secret store file (${path.join(bed.home, 'secrets', 'secrets.json')}): a secret written here was read back by a fresh process`,
      `✓ token cache ${path.join(bed.home, 'token-cache.json')}: mode 0600, 1 token (1 usable now), key in file (${path.join(bed.home, 'secrets', 'secrets.json')})`,
      '✓ cache lock: free',
      `✓ GitLab token for ${gitlab.url} (from GITLAB_TOKEN): accepted as @alice`,
    ]);
    expect(run.code).toBe(0);
  });

  it('get-token doctor --json: a missing secret, a stale lock and a refused GitLab token fail (exit 1)', async () => {
    await addProfile(bed.home, {
      name: 'default',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.service.id,
    });
    await writeFile(
      path.join(bed.home, 'token-cache.lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, host: os.hostname(), acquiredAt: '', id: 'dead' }),
    );
    const run = await runCli(bed.bundle.getToken, ['doctor', '--json'], {
      env: env({ GITLAB_TOKEN: 'glpat-revoked' }),
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      checks: { id: string; status: string; summary: string; fix?: string }[];
    };
    expect(report.ok).toBe(false);
    const status = Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
    expect(status).toEqual({
      profile: 'pass',
      secrets: 'fail',
      discovery: 'pass',
      clock: 'pass',
      'secret-store': 'pass',
      cache: 'pass',
      lock: 'fail',
      'gitlab-token': 'fail',
    });
    const gitlabCheck = report.checks.find((c) => c.id === 'gitlab-token')!;
    expect(gitlabCheck.summary).toMatch(/GitLab refuses it \(401/);
    expect(run.stdout).not.toContain('glpat-revoked');
  });

  it('names the proxy Node ignores, and NO_PROXY when it sends a request direct', async () => {
    await addProfile(
      bed.home,
      { name: 'default', issuer: bed.provider.issuer, clientId: TEST_CLIENTS.service.id },
      TEST_CLIENTS.service.secret,
    );
    const deadProxy = `http://127.0.0.1:${await freePort()}`;
    const skip = ['--skip', 'gitlab-token,secret-store'];
    const ignored = await runCli(bed.bundle.pipelineSummary, ['doctor', ...skip], {
      env: env({ HTTP_PROXY: deadProxy }),
    });
    expect(ignored.code).toBe(0);
    expect(ignored.stdout).toMatch(
      /✓ issuer discovery .*: HTTP 200 in \d+ ms, direct: HTTP_PROXY is set but Node ignores it without NODE_USE_ENV_PROXY=1\n/,
    );
    const bypassed = await runCli(bed.bundle.pipelineSummary, ['get-token', 'doctor', ...skip], {
      env: env({ HTTP_PROXY: deadProxy, NODE_USE_ENV_PROXY: '1', NO_PROXY: '127.0.0.1' }),
    });
    expect(bypassed.code).toBe(0);
    expect(bypassed.stdout).toMatch(/HTTP 200 in \d+ ms, direct \(NO_PROXY '127\.0\.0\.1'\)\n/);
    expect(bypassed.stdout).toMatch(/^- secret-store: skipped \(--skip\)$/m);
  });

  it('usage errors exit 1; --help documents the checks', async () => {
    const bad = await runCli(bed.bundle.getToken, ['doctor', '--skip', 'karma'], { env: env() });
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(
      /^get-token doctor: --skip: no check 'karma'; the checks are profile, /,
    );
    const help = await runCli(bed.bundle.pipelineSummary, ['doctor', '--help'], { env: env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pipeline-summary doctor \[-p PROFILE\] \[--json\]/);
    expect(help.stdout).toMatch(/secret-store +which store holds secrets/);
  });
});
