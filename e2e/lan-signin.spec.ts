import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CLI_BUNDLE, NODE, REPO_ROOT } from './service.ts';

// Issue 9: the service shared on a non-loopback address (127.0.0.2 on Linux's lo) asks for its
// access token; the dashboard signs in through /signin with a HttpOnly, SameSite=Strict cookie.

let child: ChildProcess;
let home: string;
let url: string;
let token: string;

test.beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'ps-e2e-lan-'));
  child = spawn(NODE, [CLI_BUNDLE, 'serve', '--demo', '--host', '127.0.0.2', '--port', '0'], {
    cwd: REPO_ROOT,
    // The file secret store keeps the generated access token in the temp home.
    env: {
      ...process.env,
      PIPELINE_SUMMARY_HOME: home,
      PIPELINE_SUMMARY_SECRET_STORE: 'file',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!/shown once[^\n]*\n(\S+)\n/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`serve did not start in LAN mode:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  url = /listening on (https?:\/\/127\.0\.0\.2:\d+)/.exec(output)![1]!;
  token = /shown once[^\n]*\n(\S+)\n/.exec(output)![1]!;
});

test.afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(home, { recursive: true, force: true });
});

test('an API call without the token is a 401 in the error shape', async ({ request }) => {
  const res = await request.get(`${url}/api/pipelines/summary`);
  expect(res.status()).toBe(401);
  expect(Object.keys(await res.json()).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  const ok = await request.get(`${url}/api/pipelines/summary`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(ok.status()).toBe(200);
});

test('the dashboard signs in with the access token and then works', async ({ page, context }) => {
  await page.goto(`${url}/`);
  await expect(page).toHaveURL(`${url}/signin`);
  await page.getByLabel('Access token').fill('not-the-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(/not the access token/);

  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${url}/`);
  await expect(page.locator('[data-metric="total"] .metric-value')).toHaveText(/[0-9]/, {
    timeout: 30_000,
  });
  await expect(page.locator('[data-connection="live"]')).toBeVisible();

  const [cookie] = await context.cookies(url);
  expect(cookie).toMatchObject({
    name: 'ps_session',
    httpOnly: true,
    sameSite: 'Strict',
    secure: false,
  });
});

test('a foreign Host is refused', async ({ request }) => {
  const res = await request.get(`${url}/api/health`, { headers: { host: 'rebound.example' } });
  expect(res.status()).toBe(403);
});
