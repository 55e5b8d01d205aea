// Each doctor check with fake edges: a fixed clock, a scripted fetch, an in-memory secret store and
// a scripted "fresh process". (doctor.cli.test.ts runs the whole through the real CLI.)
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/platform/clock.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { MemorySecretStore } from '../../server/platform/testing/memory-secret-store.ts';
import { addProfile } from '../oauth/testing/fixtures.ts';
import { makeAppCertificate } from '../oauth/testing/test-pki.ts';
import { useTokenTestBed } from '../oauth/testing/token-test-bed.ts';
import { TokenCache } from '../oauth/token-cache.ts';
import {
  runDoctor,
  type CheckId,
  type CheckResult,
  type DoctorEdges,
  type DoctorReport,
} from './doctor.ts';
import { formatReport } from './report.ts';

const bed = useTokenTestBed();
let store: MemorySecretStore;
let clock: ManualClock;
const ISSUER = 'https://idp.example.com';

beforeEach(() => {
  store = new MemorySecretStore();
  clock = new ManualClock();
});

/** A fetch that answers every request with `answer` (or throws it), noting the URLs. */
function fakeFetch(answer: (url: string) => Response | Error) {
  const urls: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    const url = String(input);
    urls.push(url);
    const result = answer(url);
    if (result instanceof Error) throw result;
    return result;
  }) as typeof globalThis.fetch;
  return { fetch, urls };
}

/** The IdP's discovery document, with a Date header `offsetMs` from our clock. */
const discovery = (offsetMs = 0) =>
  Response.json(
    { issuer: ISSUER, token_endpoint: `${ISSUER}/token` },
    { headers: { date: new Date(clock.now() + offsetMs).toUTCString() } },
  );

function edges(overrides: Partial<DoctorEdges> = {}): DoctorEdges {
  return {
    clock,
    fetch: fakeFetch(() => discovery()).fetch,
    env: {},
    usesEnvProxy: false,
    openStore: async () => store,
    readInFreshProcess: (account) => store.get(account),
    ...overrides,
  };
}

async function doctor(
  overrides: Partial<DoctorEdges> = {},
  options: { profile?: string; skip?: CheckId[] } = {},
): Promise<DoctorReport> {
  return runDoctor(
    {
      home: bed.home,
      profile: options.profile ?? 'ci',
      gitlabUrl: 'https://gitlab.example.com',
      timeoutMs: 1000,
      skip: new Set(options.skip ?? ['gitlab-token']),
    },
    edges(overrides),
  );
}

const check = (report: DoctorReport, id: CheckId): CheckResult =>
  report.checks.find((c) => c.id === id)!;

async function ciProfile(secret?: string) {
  await addProfile(bed.home, { name: 'ci', issuer: ISSUER, clientId: 'svc', scopes: ['api'] });
  if (secret) await store.set(SECRET_ACCOUNTS.clientSecret('ci'), secret);
}

describe('doctor', () => {
  it('all good: every line ✓, ok, one line per check', async () => {
    await ciProfile('s3cret');
    const report = await doctor();
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['profile', 'pass'],
      ['secrets', 'pass'],
      ['discovery', 'pass'],
      ['clock', 'pass'],
      ['secret-store', 'pass'],
      ['cache', 'pass'],
      ['lock', 'pass'],
      ['gitlab-token', 'skip'],
    ]);
    const lines = formatReport(report).trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe(
      "✓ profile 'ci': client-credentials at https://idp.example.com, client svc, scopes 'api'",
    );
    expect(lines[2]).toMatch(
      /^✓ issuer discovery https:\/\/idp\.example\.com\/\.well-known\/openid-configuration: HTTP 200 in \d+ ms, direct \(no proxy set\)$/,
    );
    expect(lines[7]).toBe('- gitlab-token: skipped (--skip)');
    expect(formatReport(report)).not.toContain('s3cret');
  });

  it('a missing profile says how to add it, and the checks that need it are skipped', async () => {
    const report = await doctor({}, { profile: 'nope' });
    expect(report.ok).toBe(false);
    expect(check(report, 'profile')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/^profile 'nope' not found in /),
      fix: expect.stringMatching(/pipeline-summary profile add nope --issuer URL --client-id ID/),
    });
    expect(
      ['secrets', 'discovery', 'clock'].map((id) => check(report, id as CheckId).status),
    ).toEqual(['skip', 'skip', 'skip']);
  });

  it('client-credentials without a secret fails with the command that stores one', async () => {
    await ciProfile();
    const report = await doctor();
    expect(check(report, 'secrets')).toMatchObject({
      status: 'fail',
      fix: expect.stringMatching(
        /echo SECRET \| pipeline-summary profile add ci … --client-secret-stdin/,
      ),
    });
  });

  it('an expired certificate fails; an expired federated token file fails', async () => {
    const cert = makeAppCertificate(bed.home, 'app');
    await addProfile(bed.home, {
      name: 'ci',
      issuer: ISSUER,
      clientId: 'svc',
      clientAuth: 'private_key_jwt',
    });
    await store.set(
      SECRET_ACCOUNTS.clientCertificate('ci'),
      await readFile(cert.bundleFile, 'utf8'),
    );
    expect(check(await doctor(), 'secrets')).toMatchObject({ status: 'pass' });
    clock.set(Date.parse('2199-01-01T00:00:00Z'));
    expect(check(await doctor(), 'secrets')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/the certificate CN=app expired/),
    });

    const jwt = (exp: number) =>
      ['{"alg":"none"}', JSON.stringify({ exp })]
        .map((p) => Buffer.from(p).toString('base64url'))
        .join('.') + '.x';
    const file = path.join(bed.home, 'federated.jwt');
    await writeFile(file, jwt(Math.floor(clock.now() / 1000) - 60));
    await addProfile(bed.home, {
      name: 'wif',
      issuer: ISSUER,
      clientId: 'svc',
      federatedTokenFile: file,
    });
    expect(check(await doctor({}, { profile: 'wif' }), 'secrets')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/federated token in .* expired 1m ago/),
    });
  });

  it('clock skew against the IdP Date header: 5 minutes fails, 20 s passes', async () => {
    await ciProfile('s');
    const ahead = await doctor({ fetch: fakeFetch(() => discovery(-300_000)).fetch });
    expect(check(ahead, 'clock')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/^clock: 30[01] s ahead of https:\/\/idp\.example\.com/),
      fix: expect.stringMatching(/timedatectl set-ntp true/),
    });
    const close = await doctor({ fetch: fakeFetch(() => discovery(20_000)).fetch });
    expect(check(close, 'clock')).toMatchObject({ status: 'pass' });
  });

  it('unreachable IdP: names the proxy Node ignores, or the proxy it used', async () => {
    await ciProfile('s');
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const env = { HTTPS_PROXY: 'http://user:pw@proxy.corp:3128', NO_PROXY: 'localhost,.internal' };
    const ignored = await doctor({ env, fetch: fakeFetch(() => refused).fetch });
    expect(check(ignored, 'discovery')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(
        /no answer \(ECONNREFUSED\), direct: HTTPS_PROXY is set but Node ignores it without NODE_USE_ENV_PROXY=1$/,
      ),
      fix: 'set NODE_USE_ENV_PROXY=1 so Node sends requests through HTTPS_PROXY',
    });
    expect(check(ignored, 'clock').status).toBe('skip');
    const used = await doctor({ env, usesEnvProxy: true });
    expect(check(used, 'discovery').summary).toMatch(
      /through the proxy http:\/\/user:\*\*\*@proxy\.corp:3128 \(HTTPS_PROXY\)$/,
    );
  });

  it('secret store: a secret a fresh process cannot see fails (the WSL/SSH keyring case)', async () => {
    await ciProfile('s');
    const written: string[] = [];
    const set = store.set.bind(store);
    store.set = async (account, secret) => {
      written.push(account);
      return set(account, secret);
    };
    const report = await doctor({ readInFreshProcess: async () => undefined });
    expect(check(report, 'secret-store')).toMatchObject({
      status: 'fail',
      summary:
        'secret store memory: a secret written here is not seen in a fresh process (the WSL/SSH session-keyring problem)',
      fix: expect.stringMatching(/--store file/),
    });
    // The probe is removed again.
    expect(written).toEqual([expect.stringMatching(/^doctor-probe:/)]);
    expect(await store.get(written[0]!)).toBeUndefined();
    expect(
      check(
        await doctor({ openStore: async () => Promise.reject(new Error('no D-Bus')) }),
        'secret-store',
      ),
    ).toMatchObject({
      status: 'fail',
      summary: 'secret store: cannot open it: no D-Bus',
    });
  });

  it('token cache: opens with the key; open to others, damaged, or keyless fails', async () => {
    await ciProfile('s');
    const cache = new TokenCache(bed.home, store);
    await cache.transaction(
      async (tx) =>
        tx.set('k', {
          accessToken: 'a',
          tokenType: 'Bearer',
          scope: 'api',
          expiresAt: clock.now() + 3600_000,
          obtainedAt: clock.now(),
          flow: 'client-credentials',
          client: 'c',
        }),
      { deadline: Date.now() + 5000 },
    );
    const file = path.join(bed.home, 'token-cache.json');
    expect(check(await doctor(), 'cache')).toMatchObject({
      status: 'pass',
      summary: `token cache ${file}: mode 0600, 1 token (1 usable now), key in memory`,
    });
    await chmod(file, 0o644);
    expect(check(await doctor(), 'cache')).toMatchObject({
      status: 'fail',
      fix: `chmod 600 ${file}`,
    });
    await chmod(file, 0o600);
    await store.delete('token-cache-key');
    expect(check(await doctor(), 'cache').summary).toMatch(/its key is not in memory/);
    await writeFile(file, 'garbage', { mode: 0o600 });
    expect(check(await doctor(), 'cache')).toMatchObject({
      status: 'fail',
      summary: `token cache ${file}: damaged (not a token cache)`,
      fix: expect.stringMatching(/moves it aside/),
    });
  });

  it('cache lock: held by a running process passes; left by a dead one fails', async () => {
    await ciProfile('s');
    const lock = path.join(bed.home, 'token-cache.lock');
    const owner = (pid: number) =>
      JSON.stringify({
        pid,
        host: os.hostname(),
        acquiredAt: new Date().toISOString(),
        id: 'x',
      });
    await mkdir(bed.home, { recursive: true });
    await writeFile(lock, owner(process.pid));
    expect(check(await doctor(), 'lock').summary).toMatch(
      /^cache lock: held by pid \d+ for \d+s \(a get-token is running\)$/,
    );
    await writeFile(lock, owner(2 ** 22 + 12_345)); // above Linux's pid_max: never running
    expect(check(await doctor(), 'lock')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/left by pid \d+ .* ago, which is no longer running/),
      fix: expect.stringMatching(/^delete .*token-cache\.lock/),
    });
  });

  it('GitLab token: from GITLAB_TOKEN or the store, accepted or refused by GET /api/v4/user', async () => {
    await ciProfile('s');
    const gitlab = fakeFetch((url) =>
      url.endsWith('/api/v4/user') ? Response.json({ username: 'alice' }) : discovery(),
    );
    const withEnv = await doctor(
      { env: { GITLAB_TOKEN: 'glpat-x' }, fetch: gitlab.fetch },
      { skip: [] },
    );
    expect(check(withEnv, 'gitlab-token')).toMatchObject({
      status: 'pass',
      summary:
        'GitLab token for https://gitlab.example.com (from GITLAB_TOKEN): accepted as @alice',
    });
    expect(gitlab.urls).toContain('https://gitlab.example.com/api/v4/user');

    const none = await doctor({}, { skip: [] });
    expect(check(none, 'gitlab-token')).toMatchObject({
      status: 'fail',
      fix: expect.stringMatching(
        /^pipeline-summary token set --url https:\/\/gitlab\.example\.com/,
      ),
    });
    await store.set(SECRET_ACCOUNTS.gitlabToken('https://gitlab.example.com'), 'glpat-old');
    const refused = await doctor(
      {
        fetch: fakeFetch((url) =>
          url.endsWith('/api/v4/user') ? new Response('{}', { status: 401 }) : discovery(),
        ).fetch,
      },
      { skip: [] },
    );
    expect(check(refused, 'gitlab-token').summary).toMatch(
      /\(from memory\): GitLab refuses it \(401/,
    );
    expect(formatReport(refused)).not.toContain('glpat-old');
  });
});
