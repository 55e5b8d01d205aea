import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import type { RepositoryTree } from '../repository-trees.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';
import { diagnose } from './diagnosis.ts';
import {
  blobUrl,
  describeLocations,
  linkLocations,
  repositoryRelative,
  scopeOfJob,
} from './linked-locations.ts';

const SHA = '3f23db2c'.padEnd(40, '0');
const scope = scopeOfJob(
  'https://gitlab.example.com/acme/platform/infra/terraform-modules/-/jobs/8010097362',
  SHA,
);
const files = (paths: string[], complete = true): RepositoryTree => ({
  kind: 'files',
  paths: new Set(paths),
  complete,
});

describe('locations as repository paths, checked and linked', () => {
  it("reads the project's address and path from the job's web_url", () => {
    expect(scope).toEqual({
      projectUrl: 'https://gitlab.example.com/acme/platform/infra/terraform-modules',
      projectPath: 'acme/platform/infra/terraform-modules',
      sha: SHA,
    });
  });

  it("strips the runner's checkout folder (CI_PROJECT_DIR), default or under a builds_dir", () => {
    const path = 'acme/web';
    expect(repositoryRelative('/builds/acme/web/src/cart.ts', path)).toBe('src/cart.ts');
    expect(repositoryRelative('/home/gitlab-runner/builds/x1/0/acme/web/src/cart.ts', path)).toBe(
      'src/cart.ts',
    );
    expect(repositoryRelative('./src/cart.ts', path)).toBe('src/cart.ts');
    expect(repositoryRelative('src/cart.ts', undefined)).toBe('src/cart.ts');
    expect(repositoryRelative('/usr/lib/node/x.js', path)).toBeUndefined();
  });

  it('links a location that exists at the commit to GitLab’s blob view at the line', () => {
    const found = linkLocations(
      ['modules/eks-node-groups/main.tf:140'],
      scope,
      files(['modules/eks-node-groups/main.tf', 'main.tf']),
    );
    expect(found).toEqual({
      items: [
        {
          file: 'modules/eks-node-groups/main.tf',
          line: 140,
          column: undefined,
          exists: true,
          url: `https://gitlab.example.com/acme/platform/infra/terraform-modules/-/blob/${SHA}/modules/eks-node-groups/main.tf#L140`,
        },
      ],
      unchecked: undefined,
    });
    expect(describeLocations(found)).toBe(
      `[\`modules/eks-node-groups/main.tf:140\`](https://gitlab.example.com/acme/platform/infra/terraform-modules/-/blob/${SHA}/modules/eks-node-groups/main.tf#L140)`,
    );
  });

  it('puts locations that exist first, finds a JVM frame’s file and an absolute path’s tail', () => {
    const found = linkLocations(
      [
        'dist/bundle.js:1:9921',
        'com/acme/shop/PriceTest.java:42',
        '/home/runner/work/shop/shop/src/cart.ts:12:5',
      ],
      scope,
      files(['src/test/java/com/acme/shop/PriceTest.java', 'src/cart.ts']),
    );
    expect(found.items.map((l) => [l.file, l.line, l.exists])).toEqual([
      ['src/test/java/com/acme/shop/PriceTest.java', 42, true],
      ['src/cart.ts', 12, true],
      ['dist/bundle.js', 1, false],
    ]);
    expect(found.items[2]!.url).toBeUndefined();
    expect(describeLocations(found)).toContain(
      '`dist/bundle.js:1:9921` (not in the repository at this commit)',
    );
  });

  it('does not call a file missing when the listing was cut short', () => {
    const found = linkLocations(['src/deep/x.ts:3'], scope, files(['README.md'], false));
    expect(found.items[0]!.exists).toBeUndefined();
    expect(found.items[0]!.url).toBe(blobUrl(scope.projectUrl!, SHA, 'src/deep/x.ts', 3));
  });

  it('keeps the locations, unverified and said so, when GitLab refused the tree', () => {
    const found = linkLocations(
      ['/builds/acme/platform/infra/terraform-modules/main.tf:7'],
      scope,
      {
        kind: 'unavailable',
        reason:
          'GitLab refused to list the repository’s files (403: the token may not read the code)',
      },
    );
    expect(found.items).toEqual([
      {
        file: 'main.tf',
        line: 7,
        column: undefined,
        exists: undefined,
        url: `https://gitlab.example.com/acme/platform/infra/terraform-modules/-/blob/${SHA}/main.tf#L7`,
      },
    ]);
    expect(describeLocations(found)).toBe(
      `[\`main.tf:7\`](https://gitlab.example.com/acme/platform/infra/terraform-modules/-/blob/${SHA}/main.tf#L7) — not checked against the repository: GitLab refused to list the repository’s files (403: the token may not read the code)`,
    );
  });

  it('encodes path segments in the link, not the slashes', () => {
    expect(blobUrl('https://g.example/a/b', SHA, 'docs/my file#1.md', 2)).toBe(
      `https://g.example/a/b/-/blob/${SHA}/docs/my%20file%231.md#L2`,
    );
  });

  it('finds a real Maven error’s file, printed under a Docker build’s WORKDIR, by its tail', () => {
    skipWithoutRealLogs();
    // GitLab CI building greedys-api's image: Maven runs inside `docker build` (WORKDIR /app), so
    // the path is the image's, neither the checkout folder nor the repository's.
    const log = loadRealLogs().find(
      (l) => l.id === 'gitlab-greedys-api-docker-maven-cannot-find-symbol',
    )!;
    const refs = diagnose(distillLog(log.text)).locations;
    const file =
      'greedys_api/src/main/java/com/application/common/service/events/listeners/ReservationEventListener.java';
    expect(refs[0]).toBe(`/app/${file}:46:19`);
    const repoScope = scopeOfJob('https://gitlab.com/ascovale/greedys-api/-/jobs/1', SHA);
    const checked = linkLocations(refs, repoScope, files([file, 'greedys_api/pom.xml']));
    expect(checked.items[0]).toEqual({
      file,
      line: 46,
      column: 19,
      exists: true,
      url: `https://gitlab.com/ascovale/greedys-api/-/blob/${SHA}/${file}#L46`,
    });
    // Without the tree the image's path cannot be told from the repository's: named, not linked.
    const unchecked = linkLocations(refs, repoScope, undefined);
    expect(unchecked.items[0]).toMatchObject({
      file: `/app/${file}`,
      exists: undefined,
      url: undefined,
    });
    expect(unchecked.unchecked).toBe('the repository’s files were not read');
  });
});
