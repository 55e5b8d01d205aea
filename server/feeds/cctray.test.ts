import { describe, expect, it } from 'vitest';
import { defaultBranchHealth } from '../group-health/default-branch.ts';
import { HealthIndex } from '../group-health/health-index.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ccTrayProjects, ccTrayXml } from './cctray.ts';
import { parseCcTray } from './testing/cctray-xml.ts';

const WEEK_MS = 7 * 86_400_000;

function group() {
  const b = new HistoryBuilder()
    .project(1, 'api')
    .project(2, 'web', 'master')
    .project(3, 'docs')
    .project(4, 'cli')
    .project(5, 'empty', '');
  // api: green three days ago, red two hours ago, a fix running now; a red feature branch.
  b.pipeline({ projectId: 1, status: 'success', minutesAgo: 4320 });
  const apiRed = b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 120 });
  b.pipeline({ projectId: 1, status: 'running', minutesAgo: 5 });
  const feature = b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 45, ref: 'feature/x' });
  b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 40,
    ref: 'refs/merge-requests/4/head',
  });
  // web: red, then green; a canceled pipeline since says nothing about the code.
  b.pipeline({ projectId: 2, status: 'failed', minutesAgo: 100, ref: 'master' });
  const webGreen = b.pipeline({ projectId: 2, status: 'success', minutesAgo: 10, ref: 'master' });
  b.pipeline({ projectId: 2, status: 'canceled', minutesAgo: 5, ref: 'master' });
  // cli: red for ten days (before the window); a pipeline that aged out still saying running.
  b.pipeline({ projectId: 4, status: 'failed', minutesAgo: 14_400 });
  b.pipeline({ projectId: 4, status: 'running', minutesAgo: 14_000 });
  const index = new HealthIndex({
    snapshot: b.build(),
    now: FIXTURE_NOW,
    windowMs: WEEK_MS,
    since: '7d',
  });
  return { index, apiRed, feature, webGreen };
}

describe('ccTrayProjects', () => {
  it('lists each default branch: last finished build, Building while one runs', () => {
    const { index, apiRed, webGreen } = group();
    const projects = ccTrayProjects(index);
    expect(projects.map((p) => p.name)).toEqual(['acme/api', 'acme/cli', 'acme/docs', 'acme/web']);
    const [api, cli, docs, web] = projects;
    expect(api).toEqual({
      name: 'acme/api',
      activity: 'Building',
      lastBuildStatus: 'Failure',
      lastBuildLabel: String(apiRed),
      // Created 120 minutes ago, started 30 s later, 600 s long (the fixture's defaults).
      lastBuildTime: new Date(FIXTURE_NOW - 120 * 60_000 + 630_000)
        .toISOString()
        .replace('.000', ''),
      webUrl: 'https://gitlab.example/acme/api/-/pipelines?ref=main',
    });
    expect(web).toMatchObject({
      activity: 'Sleeping',
      lastBuildStatus: 'Success',
      lastBuildLabel: String(webGreen),
      webUrl: 'https://gitlab.example/acme/web/-/pipelines?ref=master',
    });
    expect(cli).toMatchObject({ activity: 'Sleeping', lastBuildStatus: 'Failure' });
    expect(docs).toEqual({
      name: 'acme/docs',
      activity: 'Sleeping',
      lastBuildStatus: 'Unknown',
      webUrl: 'https://gitlab.example/acme/docs/-/pipelines?ref=main',
    });
  });

  it('agrees with group health on which default branches are broken', () => {
    const { index } = group();
    const health = defaultBranchHealth(index);
    const broken = health.projects.filter((p) => p.state === 'broken').map((p) => p.project_path);
    const failing = ccTrayProjects(index).filter((p) => p.lastBuildStatus === 'Failure');
    expect(failing.map((p) => p.name).sort()).toEqual(broken.sort());
    const unknown = health.projects.filter((p) => p.state === 'unknown' && p.default_branch);
    expect(unknown.map((p) => p.project_path)).toEqual(['acme/docs']);
  });

  it('adds the asked refs a project has pipelines on, after its default branch', () => {
    const { index, feature } = group();
    const projects = ccTrayProjects(index, ['feature/x', 'main', 'nowhere', 'feature/x']);
    // `main` is api's default branch (listed once) and no pipeline of web ran on it.
    expect(projects.map((p) => p.name)).toEqual([
      'acme/api',
      'acme/api :: feature/x',
      'acme/cli',
      'acme/docs',
      'acme/web',
    ]);
    expect(projects[1]).toMatchObject({
      activity: 'Sleeping',
      lastBuildStatus: 'Failure',
      lastBuildLabel: String(feature),
      webUrl: 'https://gitlab.example/acme/api/-/pipelines?ref=feature%2Fx',
    });
  });
});

describe('ccTrayXml', () => {
  it('is a cctray.org/v1 document an XML parser reads back as sent', () => {
    const { index } = group();
    const projects = ccTrayProjects(index, ['feature/x']);
    const parsed = parseCcTray(ccTrayXml(projects));
    expect(parsed).toEqual(projects.map((p) => ({ ...p })));
  });

  it('escapes what XML would read as markup and drops characters XML cannot carry', () => {
    const b = new HistoryBuilder().project(1, `R&D <"lab">'s \u0001tools`);
    const index = new HealthIndex({
      snapshot: b.build(),
      now: FIXTURE_NOW,
      windowMs: WEEK_MS,
      since: '7d',
    });
    const xml = ccTrayXml(ccTrayProjects(index));
    expect(xml).toContain('name="acme/R&amp;D &lt;&quot;lab&quot;&gt;&apos;s tools"');
    expect(parseCcTray(xml)[0]!.name).toBe(`acme/R&D <"lab">'s tools`);
  });

  it('is an empty <Projects/> when nothing is watched', () => {
    const xml = ccTrayXml([]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Projects\/>/);
    expect(parseCcTray(xml)).toEqual([]);
  });
});
