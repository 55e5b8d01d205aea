import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../testing/corpus/load-corpus.ts';
import { HINT } from './rules/classify-line.ts';
import { distillLog, stripAnsi } from './log-distiller.ts';

const ESC = '\x1b';
const start = (ts: number, name: string, header: string) =>
  `${ESC}[0Ksection_start:${ts}:${name}\r${ESC}[0K${ESC}[36;1m${header}${ESC}[0;m`;
const end = (ts: number, name: string) => `${ESC}[0Ksection_end:${ts}:${name}\r${ESC}[0K`;

const corpus = loadCorpus();

function recall(budgetChars: number) {
  let total = 0;
  let kept = 0;
  let rawChars = 0;
  let outChars = 0;
  const missing: string[] = [];
  for (const c of corpus) {
    const d = distillLog(c.raw, { budgetChars });
    expect(d.text.length).toBeLessThanOrEqual(budgetChars);
    rawChars += c.raw.length;
    outChars += d.text.length;
    for (const line of c.decisive) {
      total++;
      if (d.text.includes(line)) kept++;
      else missing.push(`${c.case.name}: ${line}`);
    }
  }
  return { recall: kept / total, total, missing, ratio: outChars / rawChars };
}

describe('distillLog over the failure corpus', () => {
  it('has at least 30 logs from several ecosystems, each with decisive lines marked', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((c) => c.case.ecosystem.split('/')[0])).size).toBeGreaterThanOrEqual(
      12,
    );
    for (const c of corpus) expect(c.decisive.length, c.case.name).toBeGreaterThan(0);
  });

  it('keeps at least 95% of decisive lines at the default budget while cutting the size', () => {
    const r = recall(24_000);
    expect(r.total).toBeGreaterThanOrEqual(90);
    expect(r.missing).toEqual([]);
    expect(r.recall).toBeGreaterThanOrEqual(0.95);
    expect(r.ratio).toBeLessThan(0.4);
  });

  it('still keeps at least 95% of decisive lines under a tight 6,000-character budget', () => {
    const r = recall(6_000);
    expect(r.recall, r.missing.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(r.ratio).toBeLessThan(0.15);
  });

  it('finds decisive lines with a root-cause category in every corpus log', () => {
    for (const c of corpus) {
      const d = distillLog(c.raw);
      expect(d.decisive.length, c.case.name).toBeGreaterThan(0);
      expect(
        d.decisive.some((x) => x.category !== undefined),
        c.case.name,
      ).toBe(true);
      // The pre-filter must let the decisive lines the rules know about through.
      for (const x of d.decisive) expect(HINT.test(x.text), x.text).toBe(true);
    }
  });

  it('finds the failing section and the command that failed', () => {
    const byName = (n: string) => distillLog(corpus.find((c) => c.case.name === n)!.raw);
    const jest = byName('jest-assertion');
    expect(jest.failingSection?.name).toBe('step_script');
    expect(jest.failingSection?.header).toBe('Executing "step_script" stage of the job script');
    expect(jest.failingCommand).toBe('npm test -- --ci --reporters=default');
    expect(jest.exitCode).toBe(1);
    const git = byName('git-auth-failure');
    expect(git.failingSection?.name).toBe('get_sources');
    const killed = byName('k8s-oomkilled');
    expect(killed.failingSection).toMatchObject({ name: 'step_script', closed: false });
    expect(killed.exitCode).toBe(137);
    expect(byName('eslint-errors').failingCommand).toBe('npx eslint . --max-warnings 0');
  });
});

describe('distillLog', () => {
  it('strips ANSI escapes and resolves carriage-return overwrites', () => {
    const raw = [
      `${ESC}[32;1m$ npm ci${ESC}[0;m`,
      `\rDownloading 10%\rDownloading 55%\rDownloading 100%`,
      `${ESC}]8;;https://example.com${ESC}\\link${ESC}]8;;${ESC}\\ text`,
      `line with crlf\r`,
      `${ESC}[31;1mError: boom${ESC}[0;m`,
    ].join('\n');
    const d = distillLog(raw);
    expect(d.text).toBe(
      ['$ npm ci', 'Downloading 100%', 'link text', 'line with crlf', 'Error: boom'].join('\n'),
    );
    expect(d.text).not.toContain(ESC);
    expect(stripAnsi(`${ESC}[0K${ESC}[1mx${ESC}(B`)).toBe('x');
  });

  it("removes Buildkite's per-line timestamp (an APC string, ECMA-48 §8.3.2)", () => {
    // https://github.com/buildkite/terminal-to-html/blob/043d4720427018219d57f926a81d3dce85e8e83d/fixtures/buildah-build.sh.raw
    const line = `${ESC}_bk;t=1729032360325\x07${ESC}[33mWARN${ESC}[0m[0000] Found no UID ranges set aside for user "josh" in /etc/subuid. `;
    expect(stripAnsi(line)).toBe(
      'WARN[0000] Found no UID ranges set aside for user "josh" in /etc/subuid. ',
    );
    const d = distillLog(
      `${ESC}_bk;t=1729032357206\x07${ESC}[90m$${ESC}[0m git clone -v -- https://github.com/buildkite/buildkite-agent-metrics .`,
    );
    expect(d.text).toBe('$ git clone -v -- https://github.com/buildkite/buildkite-agent-metrics .');
  });

  it("does not count an Ansible task whose failure the playbook ignores ('...ignoring'), behind Zuul's timestamps", () => {
    // https://github.com/logjuicer/logjuicer-tests/blob/b03025147d967f868c0629c8484f868f79ab65d7/datasets/zuul-console-01/console.fail
    const d = distillLog(
      [
        '2017-11-10 01:38:50.889781 | TASK [Patch zuul2 ansiblelauncher for ansible 2.4] *****************************',
        '2017-11-10 01:38:51.163514 | fatal: [localhost]: FAILED! => {"changed": true, "cmd": "patch /usr/lib/python2.7/site-packages/zuul/launcher/ansiblelaunchserver.py", "rc": 1}',
        '2017-11-10 01:38:51.163601 | ...ignoring',
        '2017-11-10 02:43:05.887718 | fatal: [localhost]: FAILED! => {"changed": true, "cmd": ["ansible-playbook", "/var/lib/software-factory/ansible/sf_erase.yml"], "rc": 2}',
        '2017-11-10 02:43:45.537231 | localhost                  : ok=47   changed=30   unreachable=0    failed=1   ',
      ].join('\n'),
    );
    expect(d.decisive.map((x) => x.message)).toEqual([
      'fatal: [localhost]: FAILED! => {"changed": true, "cmd": ["ansible-playbook", "/var/lib/software-factory/ansible/sf_erase.yml"], "rc": 2}',
    ]);
  });

  describe("an Ansible task's long JSON result", () => {
    // The shape of the real line (17,201 characters) in
    // https://github.com/logjuicer/logjuicer-tests/blob/b03025147d967f868c0629c8484f868f79ab65d7/datasets/zuul-console-01/console.fail
    // — a task ran ansible-playbook, whose own failed item is inside `stdout_lines`; Ansible always
    // gives `stdout_lines` with `stdout` (https://docs.ansible.com/ansible/latest/reference_appendices/common_return_values.html).
    const inner =
      'failed: [managesf.sftests.com] (item=/var/lib/nodepool/oci) => {"changed": false, "failed": true, "item": "/var/lib/nodepool/oci", "msg": "rmtree failed: [Errno 30] Read-only file system: \'/var/lib/nodepool/oci/host-rootfs/root/mysqldump.sql.gz\'"}';
    const progress = Array.from(
      { length: 30 },
      (_, i) =>
        `changed: [managesf.sftests.com] => (item=${23088 + i}-centos-oci-100-000000000${i})`,
    );
    const stdoutLines = [
      'TASK [sf-hypervisor-oci : Delete runC containers] ******************************',
      ...progress,
      'TASK [sf-hypervisor-oci : Remove files] ****************************************',
      'ok: [managesf.sftests.com] => (item=/var/lib/zuul/src)',
      inner,
      '\tto retry, use: --limit @/var/lib/software-factory/ansible/sf_erase.retry',
    ];
    const result = {
      changed: true,
      cmd: ['ansible-playbook', '/var/lib/software-factory/ansible/sf_erase.yml'],
      failed: true,
      msg: 'non-zero return code',
      rc: 2,
      stdout: stdoutLines.join('\n'),
      stdout_lines: stdoutLines,
    };
    const ts = '2017-11-10 02:43:05.887718 | ';
    const fatal = `${ts}fatal: [localhost]: FAILED! => ${JSON.stringify(result)}`;
    const log = (...lines: string[]) =>
      [
        `${ts}TASK [Run sf_erase playbook] ***************************************************`,
        ...lines,
      ].join('\n');

    it('is followed by the lines of its output, so the error inside is a line of its own', () => {
      expect(fatal.length).toBeGreaterThan(2000);
      const d = distillLog(log(fatal, `${ts}[Zuul] Job complete, result: FAILURE`));
      const messages = d.decisive.map((x) => x.message);
      expect(messages).toContain(
        "rmtree failed: [Errno 30] Read-only file system: '/var/lib/nodepool/oci/host-rootfs/root/mysqldump.sql.gz'",
      );
      expect(d.text).toContain(`${ts}TASK [sf-hypervisor-oci : Remove files] ****`);
      // The JSON line itself is still there (cut), and the `stdout` copy is not repeated.
      expect(d.text).toContain(`${ts}fatal: [localhost]: FAILED! => {"changed":true`);
      expect(d.text.split('rmtree failed').length - 1).toBeLessThanOrEqual(3);
    });

    it('is left whole when the playbook ignored it, or when it is not JSON', () => {
      const ignored = distillLog(log(fatal, `${ts}...ignoring`));
      expect(ignored.totalLines).toBe(3);
      const cutJson = distillLog(log(fatal.slice(0, 1500)));
      expect(cutJson.totalLines).toBe(2);
      expect(cutJson.text).toMatch(/chars cut/);
    });
  });

  it('parses section markers with headers, durations and nesting', () => {
    const raw = [
      start(100, 'prepare_executor', 'Preparing the "docker" executor'),
      'Using Docker executor',
      end(103, 'prepare_executor'),
      start(103, 'step_script', 'Executing "step_script" stage of the job script'),
      '$ make',
      start(104, 'build_inner', 'Build'),
      'cc -c a.c',
      end(110, 'build_inner'),
      '$ make test',
      'FAIL: test_one',
      end(120, 'step_script'),
      'ERROR: Job failed: exit code 2',
    ].join('\n');
    const d = distillLog(raw);
    expect(
      d.sections.map((s) => [s.name, s.startLine, s.endLine, s.closed, s.durationSec]),
    ).toEqual([
      ['prepare_executor', 1, 2, true, 3],
      ['step_script', 3, 8, true, 17],
      ['build_inner', 5, 6, true, 6],
    ]);
    expect(d.failingSection?.name).toBe('step_script');
    expect(d.failingCommand).toBe('make test');
    expect(d.exitCode).toBe(2);
    expect(d.text).not.toContain('section_');
  });

  it('strips runner timestamps (FF_TIMESTAMPS)', () => {
    const d = distillLog(
      '2024-05-01T10:00:00.123456Z 00O $ go test ./...\n2024-05-01T10:00:01.5Z 01E+ok',
    );
    expect(d.text).toBe('$ go test ./...\nok');
  });

  it('folds repeated lines and near-duplicate errors with counts', () => {
    const lines = ['$ ./poll.sh'];
    for (let i = 0; i < 50; i++) lines.push('waiting for database...');
    for (let i = 0; i < 30; i++)
      lines.push(`Error: connect ECONNREFUSED 10.0.0.${i}:5432 (attempt ${i + 1})`);
    lines.push('ERROR: Job failed: exit code 1');
    const d = distillLog(lines.join('\n'));
    expect(d.text).toContain('waiting for database...  [×50]');
    expect(d.text).toContain(
      'Error: connect ECONNREFUSED 10.0.0.0:5432 (attempt 1)  [+28 similar lines]',
    );
    // The first and the last stay verbatim: the last is nearest the failure.
    expect(d.text).toContain('Error: connect ECONNREFUSED 10.0.0.29:5432 (attempt 30)');
    expect(d.text).not.toContain('(attempt 2)');
    expect(d.text).not.toContain('(attempt 17)');
    expect(d.decisive[0]).toMatchObject({ occurrences: 29, category: 'dependency_network' });
    expect(d.keptLines).toBe(d.totalLines - 28);
  });

  it('keeps the decisive lines of a 4 MiB log within the budget, with its first error and its last lines', () => {
    const filler: string[] = [];
    for (let i = 0; i < 45_000; i++)
      filler.push(`[INFO] Downloaded artifact ${i} of 90000 (12 kB)`);
    const lines = [
      start(1, 'step_script', 'Executing "step_script" stage of the job script'),
      '$ mvn verify',
      ...filler,
      'java.lang.IllegalStateException: cache not initialised',
      '\tat com.acme.Cache.get(Cache.java:42)',
      'Caused by: java.io.FileNotFoundException: /data/cache.bin (No such file or directory)',
      '\tat java.io.FileInputStream.open0(Native Method)',
      ...filler,
      'BUILD FAILURE',
      end(9, 'step_script'),
      'ERROR: Job failed: exit code 1',
    ];
    const raw = lines.join('\n');
    expect(raw.length).toBeGreaterThan(4 * 1024 * 1024);
    const d = distillLog(raw, { budgetChars: 24_000 });
    expect(d.text.length).toBeLessThanOrEqual(24_000);
    for (const kept of [
      '$ mvn verify',
      'java.lang.IllegalStateException: cache not initialised',
      '\tat com.acme.Cache.get(Cache.java:42)',
      'Caused by: java.io.FileNotFoundException: /data/cache.bin (No such file or directory)',
      'BUILD FAILURE',
      'ERROR: Job failed: exit code 1',
    ]) {
      expect(d.text).toContain(kept);
    }
    expect(d.text).toMatch(/… \[\d+ lines omitted\] …/);
    expect(d.totalLines).toBe(lines.length - 1);
  });

  it('cuts very long lines in the middle', () => {
    const d = distillLog(`Error: ${'x'.repeat(5000)} end`);
    expect(d.text.length).toBeLessThan(1200);
    expect(d.text).toMatch(/^Error: x+ …\[\d+ chars cut\]… x+ end$/);
  });

  it('does not take "0 errors" or compiler flags for failures', () => {
    const d = distillLog(
      'gcc -Werror -c a.c\nFound 0 errors.\n$ ./deploy\nfatal: not a git repository',
    );
    expect(d.decisive.map((x) => x.text)).toEqual(['fatal: not a git repository']);
  });

  it('handles an empty log', () => {
    const d = distillLog('');
    expect(d).toMatchObject({ text: '', totalLines: 0, decisive: [], failingSection: undefined });
  });
});

describe('distillLog: the failing step and the budget', () => {
  it('keeps the lead-in of the failing step: the GitHub Actions step that ran the failing command', () => {
    const filler = Array.from(
      { length: 2000 },
      (_, i) => `2022-05-30T09:10:${String(i % 60).padStart(2, '0')}.1Z compiling module ${i}`,
    );
    const log = [
      '2022-05-30T09:10:00.0Z ##[group]Run ./gradlew build',
      ...filler,
      '2022-05-30T09:11:02.8576680Z ConsoleClientTest > testClassicParsing() FAILED',
      ...filler.slice(0, 400),
    ].join('\n');
    const d = distillLog(log, { budgetChars: 6000 });
    expect(d.text).toContain('##[group]Run ./gradlew build');
    expect(d.text).toContain('ConsoleClientTest > testClassicParsing() FAILED');
  });

  it('keeps the header of the step that failed when its errors alone would fill the budget', () => {
    // The shape of a flake8 step in
    // https://github.com/harshil753/my_closet/blob/ae756335f4ce01c4dcc1ed897b003ec464ec6a2a/1_python-test.txt:
    // hundreds of findings after `Run flake8`, then the runner's verdict.
    const findings = Array.from(
      { length: 600 },
      (_, i) =>
        `2025-10-12T20:13:17.4633422Z services/image_processor.py:${i + 1}:1: E302 expected 2 blank lines, found 1`,
    );
    const log = [
      '2025-10-12T20:13:10.0000000Z ##[group]Run pytest tests/ || true',
      '2025-10-12T20:13:12.0000000Z no tests ran in 0.01s',
      '2025-10-12T20:13:16.9000000Z ##[group]Run flake8 services/',
      '2025-10-12T20:13:16.9000001Z ##[endgroup]',
      ...findings,
      '2025-10-12T20:13:17.9000000Z ##[error]Process completed with exit code 1.',
    ].join('\n');
    const d = distillLog(log, { budgetChars: 6000 });
    expect(d.text).toContain('##[group]Run flake8 services/');
    expect(d.failingStep).toEqual({ startLine: 3, endLine: findings.length + 5 });
    // The step's header names the failing command (reproduce-it-locally answers quote it).
    expect(d.failingCommand).toBe('flake8 services/');
  });

  it('keeps a log that fits the budget whole, and fills a long one up to the budget', () => {
    const short = ['$ make', 'cc -c a.c', 'a.c:3:1: warning: unused', 'linking', 'done?'].join(
      '\n',
    );
    expect(distillLog(short).text).toBe(short);
    const long = Array.from({ length: 5000 }, (_, i) => `step ${i} ok`).join('\n');
    const d = distillLog(long, { budgetChars: 8000 });
    expect(d.text.length).toBeGreaterThan(7500);
    expect(d.text.length).toBeLessThanOrEqual(8000);
    expect(d.text.endsWith('step 4999 ok')).toBe(true);
  });
});
