import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { GitLabClient } from './client.ts';
import { checkGitLab, type GitLabConnection } from './connect.ts';
import { ScriptedGitLabServer } from './testing/scripted-gitlab-server.ts';

let server: ScriptedGitLabServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connection(status: number, group = 'acme'): Promise<GitLabConnection> {
  server = await ScriptedGitLabServer.start();
  server.on(/.*/, [{ status, json: { message: `${status}` } }]);
  const gitlab = new GitLabClient({ baseUrl: server.url, token: 't', retries: 0 });
  return { gitlab, group, demo: false, jobLogs: undefined as never, close: async () => undefined };
}

describe('checkGitLab at start-up', () => {
  // doc/api/rest/troubleshooting.md: 403 is a valid token GitLab will not serve this group to.
  it('stops on a 403 (it will not fix itself) as on a 401', async () => {
    await expect(checkGitLab(await connection(403), silentLogger)).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('stops on a group path with .. without asking GitLab', async () => {
    await expect(checkGitLab(await connection(200, 'acme/..'), silentLogger)).rejects.toMatchObject(
      { code: 'bad_request' },
    );
    expect(server!.requests).toHaveLength(0);
  });

  it('starts anyway while GitLab is down', async () => {
    await expect(checkGitLab(await connection(503), silentLogger)).resolves.toBeUndefined();
  });
});
