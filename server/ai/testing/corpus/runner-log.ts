/**
 * Builds GitLab-runner-shaped job logs for the distillation corpus: the runner's sections, ANSI
 * colours, carriage-return progress lines and seeded filler around a hand-written failure core.
 * A core line starting with `!!` is decisive: it is written with the DECISIVE_MARK prefix, which
 * `loadCorpus()` strips (and remembers) before anything is distilled.
 */

/** Prefix marking a decisive line in a corpus `.log` file (never present in real logs). */
export const DECISIVE_MARK = '⟦!⟧';

const ESC = '\x1b';
const green = (s: string) => `${ESC}[32;1m${s}${ESC}[0;m`;
const cyan = (s: string) => `${ESC}[36;1m${s}${ESC}[0;m`;
const red = (s: string) => `${ESC}[31;1m${s}${ESC}[0;m`;
const yellow = (s: string) => `${ESC}[0;33m${s}${ESC}[0;m`;

/** Mulberry32: small, seeded, good enough for filler. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
/** Real CI logs are mostly filler; this scales every `{{noise}}` count to realistic sizes. */
const NOISE_SCALE = 3;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = [
  'user',
  'order',
  'invoice',
  'account',
  'session',
  'payment',
  'report',
  'cart',
  'search',
  'profile',
  'token',
  'billing',
  'catalog',
  'inventory',
  'shipment',
  'webhook',
  'audit',
  'export',
  'import',
  'schedule',
];
const PKGS = [
  'lodash',
  'react',
  'express',
  'typescript',
  'webpack',
  'babel-core',
  'eslint',
  'jest',
  'axios',
  'chalk',
  'commander',
  'debug',
  'semver',
  'uuid',
  'yargs',
  'glob',
  'minimatch',
  'rimraf',
  'ws',
  'zod',
];
const JARS = [
  'org/springframework/spring-core/6.1.4/spring-core-6.1.4',
  'com/fasterxml/jackson/core/jackson-databind/2.16.1/jackson-databind-2.16.1',
  'org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0',
  'org/slf4j/slf4j-api/2.0.12/slf4j-api-2.0.12',
  'io/netty/netty-handler/4.1.107.Final/netty-handler-4.1.107.Final',
  'org/junit/jupiter/junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2',
  'com/google/guava/guava/33.0.0-jre/guava-33.0.0-jre',
  'org/hibernate/orm/hibernate-core/6.4.4.Final/hibernate-core-6.4.4.Final',
];
const CRATES = [
  'serde',
  'tokio',
  'syn',
  'quote',
  'proc-macro2',
  'hyper',
  'rand',
  'regex',
  'tracing',
  'clap',
  'anyhow',
  'thiserror',
  'bytes',
  'futures',
  'libc',
];

/** Filler generators, by name, as used in `{{noise:NAME:COUNT}}` directives. */
const NOISE: Record<string, (r: Rand, i: number) => string> = {
  'npm-install': (r, i) =>
    i % 7 === 0
      ? yellow(`npm warn deprecated ${pick(r, PKGS)}@${int(r, 1, 9)}.${int(r, 0, 20)}.${int(r, 0, 9)}: This package is no longer supported.`)
      : `npm http fetch GET 200 https://registry.npmjs.org/${pick(r, PKGS)}/-/${pick(r, PKGS)}-${int(r, 1, 9)}.${int(r, 0, 20)}.${int(r, 0, 9)}.tgz ${int(r, 20, 900)}ms (cache miss)`,
  'jest-pass': (r) =>
    `${ESC}[0m${ESC}[7m${ESC}[1m${ESC}[32m PASS ${ESC}[39m${ESC}[22m${ESC}[27m${ESC}[0m ${ESC}[2msrc/${pick(r, WORDS)}/${ESC}[22m${ESC}[1m${pick(r, WORDS)}.test.ts${ESC}[22m (${int(r, 1, 9)}.${int(r, 10, 99)} s)`,
  'pytest-pass': (r, i) =>
    `tests/test_${pick(r, WORDS)}.py::test_${pick(r, WORDS)}_${pick(r, WORDS)}_${i} ${green('PASSED')}${' '.repeat(int(r, 2, 30))}[${String(Math.min(99, Math.floor(i / 4))).padStart(3)}%]`,
  'go-ok': (r, i) =>
    i % 3 === 0
      ? `ok  \tgitlab.example.com/acme/api/internal/${pick(r, WORDS)}\t${int(r, 0, 3)}.${int(r, 100, 999)}s\tcoverage: ${int(r, 40, 95)}.${int(r, 0, 9)}% of statements`
      : i % 3 === 1
        ? `=== RUN   Test${pick(r, WORDS)[0]!.toUpperCase()}${pick(r, WORDS)}_${i}`
        : `--- PASS: Test${pick(r, WORDS)[0]!.toUpperCase()}${pick(r, WORDS)}_${i} (0.0${int(r, 0, 9)}s)`,
  'maven-download': (r) =>
    `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/${pick(r, JARS)}.jar (${int(r, 10, 900)} kB at ${int(r, 100, 5000)} kB/s)`,
  'maven-tests': (r) =>
    `[INFO] Tests run: ${int(r, 1, 40)}, Failures: 0, Errors: 0, Skipped: ${int(r, 0, 2)}, Time elapsed: ${int(r, 0, 5)}.${int(r, 100, 999)} s -- in com.acme.${pick(r, WORDS)}.${pick(r, WORDS)[0]!.toUpperCase()}ServiceTest`,
  'gradle-tasks': (r) =>
    `> Task :${pick(r, WORDS)}:${pick(r, ['compileJava', 'processResources', 'classes', 'jar', 'compileTestJava', 'processTestResources', 'testClasses'])} ${pick(r, ['UP-TO-DATE', 'FROM-CACHE', '', 'NO-SOURCE'])}`.trimEnd(),
  'cargo-compiling': (r) =>
    `   ${green('Compiling')} ${pick(r, CRATES)} v${int(r, 0, 2)}.${int(r, 0, 40)}.${int(r, 0, 30)}`,
  'cargo-tests': (r, i) => `test ${pick(r, WORDS)}::tests::${pick(r, WORDS)}_${i} ... ${green('ok')}`,
  apt: (r, i) =>
    i % 4 === 0
      ? `Setting up lib${pick(r, WORDS)}${int(r, 1, 9)}:amd64 (${int(r, 1, 4)}.${int(r, 0, 20)}-${int(r, 1, 5)}) ...`
      : `Get:${i + 1} http://deb.debian.org/debian bookworm/main amd64 lib${pick(r, WORDS)}${int(r, 1, 9)} amd64 ${int(r, 1, 4)}.${int(r, 0, 20)}-${int(r, 1, 5)} [${int(r, 10, 3000)} kB]`,
  'docker-steps': (r, i) =>
    `#${int(r, 5, 14)} ${int(r, 0, 90)}.${int(r, 100, 999)} ${i % 5 === 0 ? `Unpacking lib${pick(r, WORDS)} ...` : `Get:${i} http://deb.debian.org/debian bookworm/main amd64 ${pick(r, WORDS)}-utils [${int(r, 10, 900)} kB]`}`,
  progress: (r) => {
    let s = '';
    for (let p = 0; p <= 100; p += int(r, 7, 25)) s += `\rDownloading ${pick(r, PKGS)} ${p}%`;
    return s + '\rDownloading done 100%';
  },
  'app-log': (r, i) =>
    `2024-05-0${int(r, 1, 9)} 10:${String(int(r, 0, 59)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')},${int(r, 100, 999)} INFO  [main] c.a.${pick(r, WORDS)}.Service - processed batch ${i} (${int(r, 1, 500)} items)`,
  webpack: (r) =>
    `asset ${pick(r, WORDS)}.${Math.floor(r() * 0xffffff).toString(16)}.js ${int(r, 1, 900)} KiB [emitted] [immutable] [minimized] (name: ${pick(r, WORDS)})`,
  rspec: (r) => `  ${pick(r, WORDS)} ${pick(r, ['creates', 'updates', 'renders', 'rejects', 'returns'])} the ${pick(r, WORDS)}`,
  'dotnet-restore': (r) =>
    `  Restored /builds/acme/shop/src/${pick(r, WORDS)}/${pick(r, WORDS)}.csproj (in ${int(r, 100, 900)} ms).`,
  'tf-refresh': (r) =>
    `${pick(r, ['aws_s3_bucket', 'aws_iam_role', 'aws_security_group', 'aws_lambda_function'])}.${pick(r, WORDS)}: Refreshing state... [id=${pick(r, WORDS)}-${Math.floor(r() * 1e8).toString(16)}]`,
  'make-cc': (r) =>
    `g++ -std=c++20 -O2 -Wall -Wextra -Werror -Iinclude -c src/${pick(r, WORDS)}.cpp -o build/${pick(r, WORDS)}.o`,
  cypress: (r) => `    ${green('✓')} ${pick(r, WORDS)} page ${pick(r, ['loads', 'saves', 'filters', 'paginates'])} (${int(r, 100, 3000)}ms)`,
};

/** One corpus case: a job and the script output its log shows. */
export interface CorpusCase {
  name: string;
  /** Ecosystem label, for the corpus README and reports. */
  ecosystem: string;
  image: string;
  jobName: string;
  /**
   * Output of step_script. `$ cmd` lines are echoed commands, `!!` marks a decisive line, and
   * `{{noise:NAME:COUNT}}` expands to seeded filler.
   */
  script: string;
  /** What the runner prints last; default `ERROR: Job failed: exit code 1`. */
  verdict?: string;
  /** When set, the job dies inside step_script (no section_end), as on a timeout or a kill. */
  diesInScript?: boolean;
  /** When set, replaces get_sources output and the job never reaches step_script. */
  getSourcesFailure?: string;
  /** Extra output of after_script. */
  afterScript?: string;
}

function expand(text: string, r: Rand): string[] {
  const out: string[] = [];
  for (const line of text.replace(/^\n/, '').replace(/\n\s*$/, '').split('\n')) {
    const m = /^\s*\{\{noise:([a-z-]+):(\d+)\}\}\s*$/.exec(line);
    if (m) {
      const gen = NOISE[m[1]!];
      if (!gen) throw new Error(`unknown noise ${m[1]}`);
      for (let i = 0; i < Number(m[2]) * NOISE_SCALE; i++) out.push(gen(r, i));
      continue;
    }
    if (line.startsWith('!!')) {
      out.push(DECISIVE_MARK + line.slice(2));
    } else if (line.startsWith('$ ')) {
      out.push(green(line));
    } else {
      out.push(line);
    }
  }
  return out;
}

/** Renders a case as the raw log GitLab would serve (CRLF-free, ANSI and section markers included). */
export function renderCase(c: CorpusCase, seed: number): string {
  const r = seededRandom(seed);
  let ts = 1_714_557_600 + seed * 1000;
  const tick = (n = int(r, 1, 30)) => (ts += n);
  const start = (name: string, header: string, collapsed = false) =>
    `${ESC}[0Ksection_start:${tick(0)}:${name}${collapsed ? '[collapsed=true]' : ''}\r${ESC}[0K${cyan(header)}`;
  const end = (name: string) => `${ESC}[0Ksection_end:${tick()}:${name}\r${ESC}[0K`;
  const lines: string[] = [
    `${ESC}[0KRunning with gitlab-runner 17.0.0 (44feccdf)${ESC}[0;m`,
    `${ESC}[0K  on docker-autoscaler-${int(r, 1, 9)} t3_${Math.floor(r() * 1e9).toString(36)}, system ID: s_${Math.floor(r() * 1e12).toString(16)}${ESC}[0;m`,
    start('prepare_executor', 'Preparing the "docker" executor'),
    `${ESC}[0KUsing Docker executor with image ${c.image} ...${ESC}[0;m`,
    `${ESC}[0KPulling docker image ${c.image} ...${ESC}[0;m`,
    `${ESC}[0KUsing docker image sha256:${Math.floor(r() * 1e15).toString(16)}${Math.floor(r() * 1e15).toString(16)} for ${c.image} with digest ${c.image}@sha256:${Math.floor(r() * 1e15).toString(16)} ...${ESC}[0;m`,
    end('prepare_executor'),
    start('prepare_script', 'Preparing environment'),
    `Running on runner-t3abc-project-${int(r, 10, 999)}-concurrent-0 via runner-${Math.floor(r() * 1e8).toString(16)}...`,
    end('prepare_script'),
    start('get_sources', 'Getting source from Git repository'),
    `${ESC}[32;1mFetching changes with git depth set to 20...${ESC}[0;m`,
    `Initialized empty Git repository in /builds/acme/service-${seed}/.git/`,
    `${ESC}[32;1mCreated fresh repository.${ESC}[0;m`,
  ];
  if (c.getSourcesFailure) {
    lines.push(...expand(c.getSourcesFailure, r));
    lines.push(end('get_sources'));
  } else {
    lines.push(
      `${ESC}[32;1mChecking out ${Math.floor(r() * 1e8).toString(16)} as detached HEAD (ref is main)...${ESC}[0;m`,
      '',
      `${ESC}[32;1mSkipping Git submodules setup${ESC}[0;m`,
      end('get_sources'),
      start('restore_cache', 'Restoring cache', true),
      `${ESC}[32;1mChecking cache for main-protected...${ESC}[0;m`,
      `${yellow('WARNING: file does not exist')}`,
      `${ESC}[0;33mFailed to extract cache${ESC}[0;m`,
      end('restore_cache'),
      start('step_script', 'Executing "step_script" stage of the job script'),
      `${ESC}[0KUsing docker image sha256:${Math.floor(r() * 1e15).toString(16)} for ${c.image} ...${ESC}[0;m`,
      ...expand(c.script, r),
    );
    if (!c.diesInScript) {
      lines.push(end('step_script'));
      lines.push(start('after_script', 'Running after_script', true));
      lines.push(green('Running after script...'));
      lines.push(green('$ echo "job finished with status $CI_JOB_STATUS"'));
      lines.push('job finished with status failed');
      if (c.afterScript) lines.push(...expand(c.afterScript, r));
      lines.push(end('after_script'));
      lines.push(start('upload_artifacts_on_failure', 'Uploading artifacts for failed job', true));
      lines.push(green('Uploading artifacts...'));
      lines.push(`${yellow('WARNING: reports/junit.xml: no matching files. Ensure that the artifact path is relative to the working directory (/builds/acme/service-' + seed + ')')}`);
      lines.push(red('ERROR: No files to upload                         '));
      lines.push(end('upload_artifacts_on_failure'));
    }
  }
  if (!c.diesInScript) {
    lines.push(start('cleanup_file_variables', 'Cleaning up project directory and file based variables'));
    lines.push(end('cleanup_file_variables'));
  }
  lines.push('');
  lines.push(red(c.verdict ?? 'ERROR: Job failed: exit code 1'));
  return lines.join('\n') + '\n';
}
