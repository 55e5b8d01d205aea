// The shipped commands, spawned from their esbuild bundle against a local OpenID provider.
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { getToken } from './engine.ts';
import {
  addProfile,
  fileStore,
  freePort,
  jwtClaims,
  startBlackhole,
  tempHome,
} from './testing/fixtures.ts';
import { runCli } from './testing/cli-bundle.ts';
import { ScriptedBrowser } from './testing/scripted-browser.ts';
import { TEST_CLIENTS } from './testing/test-provider.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';
import { cacheKey, TokenCache } from './token-cache.ts';

const bed = useTokenTestBed({ provider: true, bundle: true });

const getTokenCli = (args: string[], input?: string) =>
  runCli(bed.bundle.getToken, args, { env: bed.env(), input });
const cli = (args: string[], input?: string) =>
  runCli(bed.bundle.pipelineSummary, args, { env: bed.env(), input });
const serviceProfile = (name = 'default', secret?: string) => bed.serviceProfile(name, secret);

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop()!;
}

describe('get-token', () => {
  it('prints the token as the last line of stdout, then serves it from the cache', async () => {
    await serviceProfile();
    const before = bed.provider.count('client_credentials');
    const first = await getTokenCli([]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.split('\n')).toHaveLength(2);
    expect(jwtClaims(lastLine(first.stdout))).toMatchObject({ client_id: 'service' });
    const second = await cli(['get-token', '-p', 'default']);
    expect(second.code).toBe(0);
    expect(lastLine(second.stdout)).toBe(lastLine(first.stdout));
    expect(bed.provider.count('client_credentials')).toBe(before + 1);
  });

  it('-o json and -o yaml carry the six token-response fields', async () => {
    await serviceProfile();
    const json = await getTokenCli(['-o', 'json']);
    expect(json.code).toBe(0);
    const response = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(response)).toEqual([
      'token_type',
      'scope',
      'expires_in',
      'access_token',
      'refresh_token',
      'expires_at',
    ]);
    expect(response).toMatchObject({
      token_type: expect.stringMatching(/bearer/i),
      scope: 'api:read',
    });
    expect(response.expires_in).toBeGreaterThan(3500);
    expect(Date.parse(response.expires_at as string)).toBeGreaterThan(Date.now() + 3500_000);
    expect(response.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const yaml = await getTokenCli(['--output', 'yaml']);
    expect(yaml.code).toBe(0);
    const parsed = parseYaml(yaml.stdout) as Record<string, unknown>;
    expect(parsed.access_token).toBe(response.access_token);
    expect(parsed).toMatchObject({ scope: 'api:read', refresh_token: '' });
  });

  it('--file writes the token to a 0600 file and nothing to stdout', async () => {
    await serviceProfile();
    const file = path.join(bed.home, 'out', '..', 'token.txt');
    const run = await getTokenCli(['--file', file]);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain(`wrote the token to ${file}`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(jwtClaims((await readFile(file, 'utf8')).trim())).toMatchObject({
      client_id: 'service',
    });
  });

  it('--silent hides diagnostics but not the token', async () => {
    await serviceProfile();
    const file = path.join(bed.home, 'token.txt');
    const run = await getTokenCli(['--file', file, '--silent']);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('exit 2: unknown profile, with one line saying how to add it', async () => {
    const run = await getTokenCli(['-p', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^get-token: profile 'nope' not found .*profile add nope/);
  });

  it('exit 3: wrong client secret', async () => {
    await serviceProfile('default', 'not-the-secret');
    const run = await getTokenCli([]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^get-token: authentication failed .*invalid_client/);
    expect(run.stderr).not.toContain('not-the-secret');
  });

  it('exit 4: issuer down', async () => {
    const port = await freePort();
    await addProfile(
      bed.home,
      { name: 'default', issuer: `http://127.0.0.1:${port}`, clientId: 'x' },
      's',
    );
    const run = await getTokenCli([]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^get-token: cannot reach the issuer http:\/\/127\.0\.0\.1:\d+: connection refused/,
    );
  });

  it('exit 5: an issuer that never answers, with --timeout 2s', async () => {
    const hole = await startBlackhole();
    try {
      await addProfile(bed.home, { name: 'default', issuer: hole.url, clientId: 'x' }, 's');
      const run = await getTokenCli(['--timeout', '2s']);
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(/^get-token: no token for profile 'default' within 2s/);
    } finally {
      await hole.close();
    }
  });

  it('exit 1: usage errors (bad --timeout, unknown flag, bad flow)', async () => {
    for (const args of [['--timeout', '10'], ['--bogus'], ['-f', 'magic'], ['-o', 'xml']]) {
      const run = await getTokenCli(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('get-token profile|inspect|refresh run those commands; serve and summary are pointed to pipeline-summary (issue 30, item 6)', async () => {
    const add = await getTokenCli(
      [
        'profile',
        'add',
        'ci',
        '--issuer',
        bed.provider.issuer,
        '--client-id',
        TEST_CLIENTS.service.id,
        '--client-secret-stdin',
      ],
      `${TEST_CLIENTS.service.secret}\n`,
    );
    expect(add).toMatchObject({ code: 0, stdout: '' });
    expect(add.stderr).toMatch(
      /^added profile 'ci' in .*profiles.json; client secret stored in file/,
    );
    const token = lastLine((await getTokenCli(['-p', 'ci'])).stdout);
    const inspect = await getTokenCli(['inspect', '-p', 'ci']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/^Inspecting the cached token of profile 'ci'/);
    const refreshed = await getTokenCli(['refresh', '-p', 'ci']);
    expect(refreshed.code).toBe(0);
    expect(lastLine(refreshed.stdout)).not.toBe(token);

    for (const [args, line] of [
      [
        ['serve', '--demo'],
        "get-token: 'serve' is not a get-token flag but a command of its own: run 'pipeline-summary serve …'",
      ],
      [
        ['summary'],
        "get-token: 'summary' is not a get-token flag but a command of its own: run 'pipeline-summary summary'",
      ],
    ] as const) {
      const run = await getTokenCli([...args]);
      expect(run, args.join(' ')).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
    }
    const nested = await cli(['get-token', 'profile', 'list']);
    expect(nested).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "pipeline-summary get-token: 'profile' is not a get-token flag but a command of its own: run 'pipeline-summary profile …'\n",
    });
  });

  it('20 parallel get-token processes on an expired entry: one refresh, one token for all', async () => {
    await addProfile(bed.home, {
      name: 'default',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'offline_access', 'api:read'],
      flow: 'interactive',
    });
    const browser = new ScriptedBrowser();
    const store = fileStore(bed.home);
    const first = await getToken(
      { profile: 'default', home: bed.home },
      { secretStore: store, openBrowser: async (url) => void browser.signIn(url) },
    );
    const profile = (await import('./profiles.ts')).getProfile(bed.home, 'default');
    const key = cacheKey(await profile, ['api:read', 'offline_access', 'openid']);
    await new TokenCache(bed.home, store).transaction(
      async (tx) => tx.set(key, { ...tx.get(key)!, expiresAt: Date.now() - 1000 }),
      { deadline: Date.now() + 5000 },
    );
    const before = bed.provider.count('refresh_token');
    const runs = await Promise.all(Array.from({ length: 20 }, () => getTokenCli([])));
    expect(runs.map((r) => r.code)).toEqual(Array(20).fill(0));
    const tokens = new Set(runs.map((r) => lastLine(r.stdout)));
    expect(tokens.size).toBe(1);
    const [token] = tokens;
    expect(token).not.toBe(first.response.access_token);
    expect(jwtClaims(token!)).toMatchObject({ sub: 'alice' });
    expect((jwtClaims(token!).exp as number) * 1000).toBeGreaterThan(Date.now());
    expect(bed.provider.count('refresh_token')).toBe(before + 1);
    expect(bed.provider.grants.filter((g) => g.grantType === 'refresh_token' && !g.ok)).toEqual([]);
  });
});

describe('interactive sign-in through the bundle', () => {
  it('prints the sign-in URL on stderr, completes when the user signs in, token on stdout', async () => {
    await addProfile(bed.home, {
      name: 'default',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'api:read'],
      flow: 'interactive',
    });
    const child = spawn(process.execPath, [bed.bundle.getToken, '--timeout', '20s'], {
      // No DISPLAY and no browser: `open` fails, and the URL on stderr is the way in.
      env: { PATH: '/nonexistent', HOME: bed.home, ...bed.env() },
    });
    let stdout = '';
    let stderr = '';
    let signIn: Promise<unknown> | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const url = /visit this URL:\n {2}(\S+)/.exec(stderr)?.[1];
      if (url && !signIn) signIn = new ScriptedBrowser().signIn(url);
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toMatch(/^Sign in with your browser/);
    expect(code).toBe(0);
    expect(jwtClaims(lastLine(stdout))).toMatchObject({ sub: 'alice', client_id: 'cli' });
    expect(await signIn).toMatchObject({ status: 200 });
  });
});

describe('refresh and inspect', () => {
  it('refresh gets a new token now; inspect decodes it without showing the refresh token', async () => {
    await serviceProfile();
    const first = await getTokenCli([]);
    const refreshed = await cli(['refresh']);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).toMatch(/refreshed profile 'default'/);
    const token = lastLine(refreshed.stdout);
    expect(token).not.toBe(lastLine(first.stdout));
    expect(lastLine((await getTokenCli([])).stdout)).toBe(token);

    const inspect = await cli(['inspect', '-p', 'default']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('Signature: NOT verified');
    expect(inspect.stdout).toMatch(/"client_id": "service"/);
    expect(inspect.stdout).toMatch(/Expires at: +\d{4}-.*\(in (59m|1h)/);
    expect(inspect.stdout).toMatch(/Time left: +(59m \d+s|1h)/);

    const json = await cli(['inspect', '-o', 'json', '-'], refreshed.stdout);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      signature_verified: false,
      expired: false,
      claims: { client_id: 'service' },
    });
  });

  it('inspect never prints a refresh token and says so when there is no cached token', async () => {
    await addProfile(bed.home, {
      name: 'me',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'offline_access', 'api:read'],
      flow: 'interactive',
    });
    const none = await cli(['inspect', '-p', 'me']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no cached token for profile 'me'; run 'get-token -p me' first/);
    const browser = new ScriptedBrowser();
    const result = await getToken(
      { profile: 'me', home: bed.home },
      { secretStore: fileStore(bed.home), openBrowser: async (url) => void browser.signIn(url) },
    );
    const inspect = await cli(['inspect', '-p', 'me']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).not.toContain(result.response.refresh_token);
    expect(inspect.stdout).toContain('"sub": "alice"');
  });

  it('inspect says what a non-numeric exp is instead of "no exp claim" (issue 30, item 10)', async () => {
    // RFC 7519 §4.1.4: exp is a NumericDate (https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4).
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwt = `${part({ alg: 'none' })}.${part({ sub: 'x', iat: 'yesterday', exp: 'tomorrow' })}.sig`;
    const text = await cli(['inspect', jwt]);
    expect(text.code).toBe(0);
    expect(text.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      'Issued at:    not a number: "yesterday"',
      'Expires at:   not a number: "tomorrow"',
      'Time left:    unknown (exp is not a number: "tomorrow")',
    ]);
    const json = await cli(['inspect', '-o', 'json', jwt]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      times: {},
      invalid_times: { iat: 'not a number: "yesterday"', exp: 'not a number: "tomorrow"' },
      expires_in: null,
      expired: null,
    });
    const none = await cli(['inspect', `${part({ alg: 'none' })}.${part({ sub: 'x' })}.sig`]);
    expect(none.stdout.trimEnd().split('\n').pop()).toBe('Time left:    unknown (no exp claim)');
  });

  it('inspect rejects an opaque argument with exit 1', async () => {
    const run = await cli(['inspect', 'not-a-jwt']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a JWT/);
  });
});

describe('profile and token commands', () => {
  it('profile add (secret from stdin) → get-token works; list, show, remove', async () => {
    const add = await cli(
      [
        'profile',
        'add',
        'ci',
        '--issuer',
        bed.provider.issuer,
        '--client-id',
        TEST_CLIENTS.service.id,
        '--client-secret-stdin',
        '--scope',
        'api:read',
      ],
      `${TEST_CLIENTS.service.secret}\n`,
    );
    expect(add).toMatchObject({ code: 0, stdout: '' });
    expect(add.stderr).toMatch(/added profile 'ci'.*client secret stored in file/);
    const saved = await readFile(path.join(bed.home, 'profiles.json'), 'utf8');
    expect(saved).not.toContain(TEST_CLIENTS.service.secret);
    expect(JSON.parse(saved)).toMatchObject({
      version: 1,
      profiles: { ci: { flow: 'client-credentials', scopes: ['api:read'] } },
    });

    expect((await getTokenCli(['-p', 'ci'])).code).toBe(0);
    const list = await cli(['profile', 'list']);
    expect(list.stdout).toMatch(
      /^NAME +FLOW +ISSUER +CLIENT ID +SCOPES\nci +client-credentials +http/,
    );
    const show = await cli(['profile', 'show', 'ci']);
    expect(show.stdout).toMatch(/client secret: +stored in file/);
    const removed = await cli(['profile', 'remove', 'ci']);
    expect(removed.stderr).toMatch(/removed profile 'ci', its client secret and 1 cached token/);
    expect((await getTokenCli(['-p', 'ci'])).code).toBe(2);
    expect((await cli(['profile', 'remove', 'ci'])).code).toBe(2);
  });

  it('without a keychain (no D-Bus), auto mode keeps secrets in the file and says so once', async () => {
    const auto = { PIPELINE_SUMMARY_HOME: bed.home };
    const add = await bed.addServiceProfileWithCli('svc', auto);
    expect(add.code).toBe(0);
    expect(add.stderr).toMatch(
      /^note: no OS keychain reachable \(no D-Bus session bus for the Secret Service\); keeping secrets in .*secrets\.json \(mode 0600\)/,
    );
    const token = await runCli(bed.bundle.getToken, ['-p', 'svc'], { env: auto });
    expect(token).toMatchObject({ code: 0, stderr: '' });
    expect(await fileStore(bed.home).get('client-secret:svc')).toBe(TEST_CLIENTS.service.secret);
  });

  it('profile add rejects bad input with exit 1 and a pointed message', async () => {
    const run = await cli([
      'profile',
      'add',
      'x',
      '--issuer',
      'http://example.com',
      '--client-id',
      'a',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/issuer 'http:\/\/example.com' must use https/);
    const tenant = await cli([
      'profile',
      'add',
      'entra',
      '--tenant',
      'contoso.onmicrosoft.com',
      '--client-id',
      'a',
      '-f',
      'device-code',
    ]);
    expect(tenant.code).toBe(0);
    expect((await cli(['profile', 'show', 'entra'])).stdout).toContain(
      'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
    );
  });

  it('export leaves secrets out unless asked; an encrypted export imports with its passphrase', async () => {
    await serviceProfile('svc');
    const plain = await cli(['profile', 'export']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(TEST_CLIENTS.service.secret);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('secrets');

    const file = path.join(bed.home, 'export.json');
    const enc = await cli(
      ['profile', 'export', 'svc', '--file', file, '--include-secrets', '--passphrase-stdin'],
      'correct horse battery\n',
    );
    expect(enc.code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toContain(TEST_CLIENTS.service.secret);

    const other = await tempHome();
    try {
      const otherEnv = { PIPELINE_SUMMARY_HOME: other.home, PIPELINE_SUMMARY_SECRET_STORE: 'file' };
      const wrong = await runCli(
        bed.bundle.pipelineSummary,
        ['profile', 'import', file, '--passphrase-stdin'],
        {
          env: otherEnv,
          input: 'wrong passphrase\n',
        },
      );
      expect(wrong.code).toBe(3);
      const ok = await runCli(
        bed.bundle.pipelineSummary,
        ['profile', 'import', file, '--passphrase-stdin'],
        {
          env: otherEnv,
          input: 'correct horse battery\n',
        },
      );
      expect(ok.code).toBe(0);
      expect(ok.stderr).toMatch(/imported 1 profile and 1 client secret/);
      const token = await runCli(bed.bundle.getToken, ['-p', 'svc'], { env: otherEnv });
      expect(token.code).toBe(0);
    } finally {
      await other.cleanup();
    }
  });

  it('token set stores the GitLab token from stdin under its origin; token clear removes it', async () => {
    const set = await cli(
      ['token', 'set', '--url', 'https://gitlab.example.com/group'],
      'glpat-abc\n',
    );
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/stored the GitLab token for https:\/\/gitlab.example.com in file/);
    expect(await fileStore(bed.home).get('gitlab-token:https://gitlab.example.com')).toBe(
      'glpat-abc',
    );
    const clear = await cli(['token', 'clear', '--url', 'https://gitlab.example.com']);
    expect(clear.code).toBe(0);
    expect(
      await fileStore(bed.home).get('gitlab-token:https://gitlab.example.com'),
    ).toBeUndefined();
    expect((await cli(['token', 'set', '--url', 'https://gitlab.example.com'], '')).code).toBe(1);
  });
});
