import { describe } from 'vitest';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { machineFamily } from './machine.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: 'bash reporting a child the kernel killed (SIGKILL)',
    from: 'https://www.gnu.org/software/bash/manual/bash.html#Job-Control-Basics',
    line: 'bash: line 12:  4242 Killed                  npm run build',
    rule: 'machine/child-killed',
    category: 'oom_killed',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'MSBuild unable to copy an output another process holds (MSB3021), not a compile error',
    from: 'https://github.com/jenkinsci/analysis-model/blob/9b50d2d46b0da0b77a201963327c0a5ce5641e28/src/test/resources/edu/hm/hafner/analysis/parser/issue7775.txt',
    line: '        c:\\WINDOWS\\Microsoft.NET\\Framework\\v3.5\\Microsoft.Common.targets(2703,9): error MSB3021: Unable to copy file "C:\\Dev\\knd\\XXX.Collector.Monitoring.Model\\bin\\Debug\\XXX.Collector.Monitoring.Model.dll" to "bin\\Debug\\XXX.Collector.Monitoring.Model.dll". The process cannot access the file',
    rule: 'machine/file-in-use',
    category: 'script_error',
  },
  {
    what: 'rootless podman without enough subordinate IDs for the image',
    from: 'https://github.com/rvanderpol3/podman-jenkins-bug/blob/885a49b0e19df140b0714f3bf0189b9b1e9db42b/jenkins-output.txt',
    line: 'Error: error creating build container: Error committing the finished image: error adding layer with blob "sha256:76608b6b9d54251299c5d3be69fdf53e05f97a3735bbcd5889c30ebb78608428": Error processing tar file(exit status 1): there might not be enough IDs available in the namespace (requested 192:192 for /run/systemd/netif): lchown /run/systemd/netif: invalid argument',
    rule: 'machine/subordinate-ids',
    category: 'config_yaml',
  },
  {
    what: 'a full disk',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/guava_2087/fail.log',
    line: '[ERROR] No space left on device',
    rule: 'machine/disk-full',
    category: 'script_error',
  },
  {
    what: "gcc's driver losing cc1plus to the OOM killer",
    from: 'https://gcc.gnu.org/bugzilla/show_bug.cgi?id=71877 (the message as gcc prints it)',
    line: 'c++: fatal error: Killed signal terminated program cc1plus',
    rule: 'machine/compiler-killed',
    category: 'oom_killed',
  },
  {
    what: 'a JVM that cannot reserve its heap',
    from: 'https://docs.oracle.com/en/java/javase/21/troubleshoot/troubleshooting-memory-leaks.html',
    line: 'Could not reserve enough space for object heap',
    rule: 'machine/jvm-heap',
    category: 'oom_killed',
  },
  {
    what: "Gradle's daemon killed under the build",
    from: 'https://github.com/gradle/gradle/issues/9371 (usually the OOM killer; quoted, but not proof of one)',
    line: 'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)',
    rule: 'machine/jvm-heap',
    category: 'oom_killed',
  },
  {
    what: "Node's heap exhausted in a Vitest worker",
    from: 'https://github.com/LIYUNG/TaiGerPortalStaticWebsite/blob/c7cbcfdeecba01f3f5ff900741806c7acc440964/codebuild.log',
    line: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    rule: 'machine/out-of-memory',
    category: 'oom_killed',
  },
];

describe('machine rules', () => {
  itClassifiesFamilyLines(machineFamily, { documented: DOCUMENTED, quoted: QUOTED });
});
