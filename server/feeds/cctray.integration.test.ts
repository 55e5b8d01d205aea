import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefaultBranchesResponse } from '../group-health/contract.ts';
import { basicAuth, startLanHarness, type LanHarness } from '../testing/lan-harness.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';
import { parseCcTray, type ParsedProject } from './testing/cctray-xml.ts';

// GET /cc.xml against the service composed on the GitLab simulator, read back with an XML parser
// and checked against cctray.org/v1 (see testing/cctray-xml.ts for what the spec asks).
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(() => h?.close());

async function feed(query = ''): Promise<ParsedProject[]> {
  const res = await fetch(`${h.service.url}/cc.xml${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return parseCcTray(await res.text());
}

async function defaultBranches(): Promise<DefaultBranchesResponse> {
  return (await h.api('/api/health/default-branches')).body as DefaultBranchesResponse;
}

describe('GET /cc.xml (loopback)', () => {
  it("lists every watched project's default branch, red where group health says broken", async () => {
    const projects = await feed();
    const health = await defaultBranches();
    const withBranch = health.projects.filter((p) => p.default_branch !== '');
    expect(projects.map((p) => p.name).sort()).toEqual(
      withBranch.map((p) => p.project_path).sort(),
    );
    for (const branch of withBranch) {
      const entry = projects.find((p) => p.name === branch.project_path)!;
      const expected = { broken: 'Failure', passing: 'Success', unknown: 'Unknown' }[branch.state];
      expect(entry.lastBuildStatus, branch.project_path).toBe(expected);
      expect(entry.webUrl).toBe(
        `${branch.web_url}/-/pipelines?ref=${encodeURIComponent(branch.default_branch)}`,
      );
    }
    // The seeded group has both colours, so the comparison above means something.
    expect(new Set(projects.map((p) => p.lastBuildStatus))).toEqual(
      new Set(['Success', 'Failure']),
    );
  });

  it('says Building while a default-branch pipeline runs, then its outcome and label', async () => {
    const target = (await defaultBranches()).projects.find(
      (p) => p.state === 'passing' && p.default_branch !== '',
    )!;
    const building = () => feed().then((all) => all.find((p) => p.name === target.project_path)!);
    const { pipelineId } = h.simulator.startPipeline(target.project_id, {
      ref: target.default_branch,
    });
    await h.service.poller.cycleOnce();
    expect(await building()).toMatchObject({ activity: 'Building', lastBuildStatus: 'Success' });

    h.simulator.finishPipeline(target.project_id, pipelineId, 'failed');
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();
    const after = await building();
    expect(after).toMatchObject({
      activity: 'Sleeping',
      lastBuildStatus: 'Failure',
      lastBuildLabel: String(pipelineId),
    });
    expect(Date.parse(after.lastBuildTime!)).toBeGreaterThan(Date.now() - 3_600_000);
  });

  it('adds an entry per asked ref a project has pipelines on', async () => {
    const target = (await defaultBranches()).projects.find((p) => p.default_branch !== '')!;
    h.simulator.startPipeline(target.project_id, { ref: 'release/9.x' });
    await h.service.poller.cycleOnce();
    const projects = await feed('?refs=release/9.x,no-such-ref&refs=release/9.x');
    const named = `${target.project_path} :: release/9.x`;
    expect(projects.filter((p) => p.name.includes(' :: ')).map((p) => p.name)).toEqual([named]);
    expect(projects.find((p) => p.name === named)).toMatchObject({
      activity: 'Building',
      lastBuildStatus: 'Unknown',
      webUrl: `${target.web_url}/-/pipelines?ref=release%2F9.x`,
    });
  });

  it('answers HEAD too (Nevergreen\'s "Check connection" sends one)', async () => {
    // build-canaries/nevergreen src/client/settings/tracking/ConnectionFormHelp.tsx.
    const res = await fetch(`${h.service.url}/cc.xml`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  });

  it('refuses refs it cannot mean, in the error shape', async () => {
    const tooMany = Array.from({ length: 51 }, (_, i) => `r${i}`).join(',');
    for (const [query, message] of [
      [`?refs=${tooMany}`, /more than 50 refs/],
      [`?refs=${'x'.repeat(256)}`, /longer than 255/],
      ['?refs=bad%01ref', /control character/],
    ] as const) {
      const { status, body } = await h.api(`/cc.xml${query}`);
      expect(status, query).toBe(400);
      expect(body.error).toMatch(message);
    }
  });
});

describe('GET /cc.xml in LAN mode', () => {
  let lan: LanHarness;
  beforeAll(async () => {
    lan = await startLanHarness();
  }, 60_000);
  afterAll(() => lan?.close());

  const get = (authorization?: string) =>
    fetch(`${lan.service.url}/cc.xml`, {
      redirect: 'manual',
      headers: authorization ? { authorization } : {},
    });
  const basic = (password: string) => basicAuth('ccmenu', password);

  it('takes the access token as a Bearer token and as the Basic-auth password', async () => {
    for (const authorization of [`Bearer ${lan.accessToken}`, basic(lan.accessToken)]) {
      const res = await get(authorization);
      expect(res.status).toBe(200);
      expect(parseCcTray(await res.text()).length).toBeGreaterThan(0);
    }
  });

  it('answers 401 with a Basic challenge without the token or with a wrong one', async () => {
    for (const authorization of [undefined, basic('wrong'), 'Bearer wrong']) {
      const res = await get(authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="Pipeline Summary"/);
    }
  });
});
