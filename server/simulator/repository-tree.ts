// A simulated project's repository at a commit: its manifests, and every source file the logs of
// that commit's failed jobs name, so the analysis can check the paths it quotes against it.
import type { Dataset } from './dataset.ts';
import { renderTrace } from './logs/trace.ts';
import type { SimProject, ToolKind } from './model.ts';

/** One entry of GET /projects/:id/repository/tree (doc/api/repositories.md). */
export interface SimTreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob';
  path: string;
  mode: '040000' | '100644';
}

// The files a repository of each tool has whatever fails (what its build reads first).
const MANIFESTS: Partial<Record<ToolKind, readonly string[]>> = {
  'npm-build': ['package.json', 'package-lock.json', 'tsconfig.json'],
  jest: ['package.json', 'jest.config.js'],
  eslint: ['eslint.config.js'],
  tsc: ['tsconfig.json'],
  'go-build': ['go.mod', 'go.sum'],
  'go-test': ['go.mod'],
  'docker-build': ['Dockerfile', '.dockerignore'],
  'cargo-build': ['Cargo.toml', 'Cargo.lock'],
  pytest: ['pyproject.toml', 'requirements.txt'],
  rspec: ['Gemfile', 'Gemfile.lock', '.rspec'],
  rubocop: ['.rubocop.yml'],
  'maven-compile': ['pom.xml'],
  'terraform-plan': ['main.tf', 'variables.tf', 'versions.tf'],
  'helm-lint': ['charts/Chart.yaml'],
  gradle: ['build.gradle.kts', 'settings.gradle.kts'],
  mkdocs: ['mkdocs.yml', 'docs/index.md'],
};

const EXT =
  'tsx?|jsx?|mjs|cjs|go|rs|py|rb|java|kt|tf|ya?ml|json|toml|xml|gradle|kts|swift|sh|md|cs|c|h|cpp';
// A path a tool printed: relative (`src/x.ts`) or under the checkout folder (`/builds/acme/web/…`).
const PRINTED_PATH = new RegExp(
  String.raw`(?:^|[\s'"(\[])((?:\.?\/)?(?:[\w@.-]+\/)*[\w@.-]+\.(?:${EXT}))(?=[:\s(,)\]'"]|$)`,
  'g',
);
// A JVM frame names a class, not a file: `at com.acme.api.CircuitBreakerTest.run(CircuitBreakerTest.java:236)`.
const JVM_FRAME = /\bat ((?:[a-z]\w*\.)+)(\w+)\.[\w$<>]+\((\w+\.(?:java|kt)):\d+\)/g;

/** The repository paths one log names, its checkout folder stripped, libraries and URLs left out. */
function pathsNamed(log: string, project: SimProject): string[] {
  const out: string[] = [];
  const checkout = `/builds/${project.fullPath}/`;
  for (const line of log.split('\n')) {
    if (/https?:\/\//.test(line) && !line.includes(checkout)) continue;
    for (const m of line.matchAll(JVM_FRAME)) {
      const folder = m[1]!.replace(/\./g, '/');
      const root = /Test\b/.test(m[2]!) ? 'src/test/java' : 'src/main/java';
      out.push(`${root}/${folder}${m[3]}`);
    }
    for (const m of line.matchAll(PRINTED_PATH)) {
      let path = m[1]!;
      if (path.startsWith(checkout)) path = path.slice(checkout.length);
      path = path.replace(/^\.\//, '');
      if (path.startsWith('/') || /node_modules|site-packages|\.cargo|go\/pkg/.test(path)) continue;
      // A bare Go file name (`circuit_breaker_test.go:236`) is named in full elsewhere in the log.
      if (!path.includes('/') && path.endsWith('.go')) continue;
      out.push(path);
    }
  }
  return out;
}

/**
 * Every file and folder of the project's repository at `sha`: `.gitlab-ci.yml`, `README.md`, the
 * manifests of its jobs' tools and the files the logs of that commit's failed jobs name. Sorted by
 * path, folders before the files in them, as `git ls-tree -r -t` lists them.
 */
export function repositoryTree(data: Dataset, project: SimProject, sha: string): SimTreeEntry[] {
  const files = new Set(['.gitlab-ci.yml', 'README.md']);
  for (const pipeline of project.pipelines) {
    if (pipeline.sha !== sha) continue;
    for (const job of [...data.jobsOf(pipeline), ...pipeline.retriedJobs]) {
      for (const m of MANIFESTS[job.template.tool] ?? []) files.add(m);
      if (job.status !== 'failed') continue;
      const log = renderTrace({ seed: data.options.seed, project, pipeline, job });
      for (const p of pathsNamed(log, project)) files.add(p);
    }
  }
  const entries = new Map<string, SimTreeEntry>();
  for (const file of files) {
    const parts = file.split('/');
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join('/');
      if (entries.has(path)) return;
      const blob = i === parts.length - 1;
      entries.set(path, {
        id: objectId(`${sha}:${path}`),
        name,
        type: blob ? 'blob' : 'tree',
        path,
        mode: blob ? '100644' : '040000',
      });
    });
  }
  return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A stable 40-hex object id for a path at a commit (not git's hash: nothing reads it back). */
function objectId(key: string): string {
  let h1 = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 40; round++) {
    for (let i = 0; i < key.length; i++) h1 = Math.imul(h1 ^ key.charCodeAt(i), 0x01000193) >>> 0;
    h1 = Math.imul(h1 ^ round, 0x01000193) >>> 0;
    out += h1.toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}
