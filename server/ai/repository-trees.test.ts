import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { RepositoryTrees, type TreeReader } from './repository-trees.ts';

const ENTRIES = [
  { path: 'src', type: 'tree' },
  { path: 'src/cart.ts', type: 'blob' },
  { path: 'vendor/lib', type: 'commit' },
];

function countingReader(answer: () => Promise<{ path: string; type: string }[]>) {
  const calls: string[] = [];
  const read: TreeReader = async (projectId, sha, limit) => {
    calls.push(`${projectId}@${sha}/${limit}`);
    return answer();
  };
  return { calls, read };
}

describe('repository trees, cached per commit', () => {
  it('reads a commit’s tree once, for concurrent and later asks, and keeps files only', async () => {
    const { calls, read } = countingReader(async () => ENTRIES);
    const trees = new RepositoryTrees(read);
    const [a, b] = await Promise.all([trees.get(7, 'abc'), trees.get(7, 'abc')]);
    await trees.get(7, 'abc');
    expect(calls).toEqual(['7@abc/3000']);
    expect(a).toBe(b);
    expect(a).toEqual({ kind: 'files', paths: new Set(['src/cart.ts']), complete: true });
  });

  it('says a listing that reached the cap is incomplete', async () => {
    const { read } = countingReader(async () => ENTRIES);
    const tree = await new RepositoryTrees(read, 3).get(7, 'abc');
    expect(tree).toMatchObject({ kind: 'files', complete: false });
  });

  it('keeps a 403 for the commit but asks again after GitLab was unreachable', async () => {
    let error: Error = new AppError('forbidden', 'GitLab refused');
    const { calls, read } = countingReader(() => Promise.reject(error));
    const trees = new RepositoryTrees(read);
    expect(await trees.get(7, 'abc')).toEqual({
      kind: 'unavailable',
      reason:
        'GitLab refused to list the repository’s files (403: the token may not read the code)',
    });
    await trees.get(7, 'abc');
    expect(calls).toHaveLength(1);
    error = new AppError('upstream_unavailable', 'GitLab at g.example did not answer');
    expect(await trees.get(7, 'def')).toEqual({
      kind: 'unavailable',
      reason: 'GitLab did not list the repository’s files (GitLab at g.example did not answer)',
    });
    await trees.get(7, 'def');
    expect(calls).toEqual(['7@abc/3000', '7@def/3000', '7@def/3000']);
  });

  it('keeps at most 32 commits, dropping the least recently used', async () => {
    const { calls, read } = countingReader(async () => ENTRIES);
    const trees = new RepositoryTrees(read);
    for (let i = 0; i < 33; i++) await trees.get(1, `sha${i}`);
    await trees.get(1, 'sha32');
    await trees.get(1, 'sha1');
    expect(calls).toHaveLength(33);
    await trees.get(1, 'sha0');
    expect(calls).toHaveLength(34);
  });
});
