import type { SimProject } from '../model.ts';
import type { Rng } from '../random.ts';
import { defineFamily, type FailureWriters, type FillerSpot } from './family.ts';
import { camel, secs, words } from './runner-text.ts';

/** Maven Central dropping the connection mid-download, as Maven reports it (Gradle's reads the same). */
export function mavenCentralReset(project: SimProject): string[] {
  return [
    `[ERROR] Failed to execute goal on project ${project.path}: Could not transfer artifact org.postgresql:postgresql:jar:42.7.3 from/to central (https://repo.maven.apache.org/maven2): transfer failed for https://repo.maven.apache.org/maven2/org/postgresql/postgresql/42.7.3/postgresql-42.7.3.jar: Connection reset -> [Help 1]`,
  ];
}

/** A chatty JVM test run's debug line: the repository layer logging a query. */
export function jvmDebugLine({ ts, w }: FillerSpot, rng: Rng): string {
  return `${ts.slice(11, 23)} [main] DEBUG c.a.${w}.Repository - SELECT id, status FROM ${w}s WHERE tenant_id = ? [took ${rng.int(1, 90)}ms]`;
}

/** Java jobs built with Maven: compile, Surefire tests, Checkstyle. */
export const mavenFamily = defineFamily(['maven-compile', 'maven-test', 'checkstyle'], {
  setup(_tool, _ctx, rng) {
    return [
      {
        cmd: 'mvn -B -q -s ci_settings.xml dependency:go-offline',
        out: [
          '[INFO] Scanning for projects...',
          `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/springframework/boot/spring-boot-dependencies/3.3.1/spring-boot-dependencies-3.3.1.pom (${rng.int(90, 120)} kB at ${rng.int(400, 2000)} kB/s)`,
        ],
      },
    ];
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    const ws = words(p);
    switch (tool) {
      case 'maven-compile':
        return {
          cmd: 'mvn -B -s ci_settings.xml compile',
          out: [
            '[INFO] Scanning for projects...',
            '[INFO] ',
            `[INFO] ------------------< com.acme:${p.path} >------------------`,
            `[INFO] Building ${p.path} ${rng.int(1, 4)}.${rng.int(0, 20)}.0-SNAPSHOT`,
            '[INFO] --------------------------------[ jar ]---------------------------------',
            `[INFO] --- compiler:3.13.0:compile (default-compile) @ ${p.path} ---`,
            `[INFO] Compiling ${rng.int(80, 400)} source files with javac [debug release 21] to target/classes`,
            '[INFO] ------------------------------------------------------------------------',
            '[INFO] BUILD SUCCESS',
            '[INFO] ------------------------------------------------------------------------',
            `[INFO] Total time:  ${rng.int(20, 90)}.${rng.int(100, 999)} s`,
          ],
        };
      case 'maven-test': {
        const out = [
          `[INFO] --- surefire:3.2.5:test (default-test) @ ${p.path} ---`,
          '[INFO] ',
          '[INFO] -------------------------------------------------------',
          '[INFO]  T E S T S',
          '[INFO] -------------------------------------------------------',
        ];
        let total = 0;
        for (const w of ws) {
          const n = rng.int(4, 30);
          total += n;
          out.push(
            `[INFO] Running com.acme.${p.path.split('-')[0]}.${camel(w)}Test`,
            `[INFO] Tests run: ${n}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: ${secs(rng, 0.1, 9)} s -- in com.acme.${p.path.split('-')[0]}.${camel(w)}Test`,
          );
        }
        out.push(
          '[INFO] ',
          '[INFO] Results:',
          '[INFO] ',
          `[INFO] Tests run: ${total}, Failures: 0, Errors: 0, Skipped: 0`,
          '[INFO] ',
          '[INFO] BUILD SUCCESS',
        );
        return { cmd: 'mvn -B -s ci_settings.xml verify', out };
      }
      case 'checkstyle':
        return {
          cmd: 'mvn -B -s ci_settings.xml checkstyle:check',
          out: ['[INFO] You have 0 Checkstyle violations.', '[INFO] BUILD SUCCESS'],
        };
    }
  },
  // Every Maven job resolves its dependencies first (`dependency:go-offline` in setup).
  network(_tool, ctx) {
    return mavenCentralReset(ctx.project);
  },
  fillerLine(tool, at, rng) {
    return tool === 'maven-test' ? jvmDebugLine(at, rng) : undefined;
  },
  lint(tool, spot) {
    const { w, line, col } = spot;
    const p = spot.ctx.project;
    switch (tool) {
      case 'checkstyle':
        return [
          `[ERROR] src/main/java/com/acme/${p.path.split('-')[0]}/${camel(w)}Service.java:[${line},${col}] (sizes) LineLength: Line is longer than 120 characters (found 134). [LineLength]`,
          '[INFO] BUILD FAILURE',
          `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.4.0:check (default-cli) on project ${p.path}: You have 1 Checkstyle violation. -> [Help 1]`,
        ];
      default:
        return undefined;
    }
  },
});

/** How Maven jobs fail, by failure kind. */
export const mavenFailures = {
  'junit-assertion'({ rng, w, line, ctx }) {
    const p = ctx.project;
    const cls = `${camel(w)}Test`;
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        `[INFO] Running com.acme.${p.path.split('-')[0]}.${cls}`,
        `[ERROR] Tests run: ${rng.int(5, 30)}, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: ${secs(rng, 0.5, 9)} s <<< FAILURE! -- in com.acme.${p.path.split('-')[0]}.${cls}`,
        `[ERROR] com.acme.${p.path.split('-')[0]}.${cls}.shouldRoundHalfEven -- Time elapsed: 0.031 s <<< FAILURE!`,
        'org.opentest4j.AssertionFailedError: expected: <42.50> but was: <42.49>',
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
        '\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:197)',
        `\tat com.acme.${p.path.split('-')[0]}.${cls}.shouldRoundHalfEven(${cls}.java:${line})`,
        '',
        '[INFO] ',
        '[INFO] Results:',
        '[INFO] ',
        '[ERROR] Failures: ',
        `[ERROR]   ${cls}.shouldRoundHalfEven:${line} expected: <42.50> but was: <42.49>`,
        '[INFO] ',
        `[ERROR] Tests run: ${rng.int(100, 400)}, Failures: 1, Errors: 0, Skipped: ${rng.int(0, 4)}`,
        '[INFO] ',
        '[INFO] ------------------------------------------------------------------------',
        '[INFO] BUILD FAILURE',
        '[INFO] ------------------------------------------------------------------------',
        `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project ${p.path}: There are test failures.`,
        '[ERROR] -> [Help 1]',
      ],
    };
  },
  'maven-dependency'({ ctx }) {
    const p = ctx.project;
    return {
      early: true,
      exit: 'exit code 1',
      lines: [
        '[INFO] ------------------------------------------------------------------------',
        '[INFO] BUILD FAILURE',
        '[INFO] ------------------------------------------------------------------------',
        `[ERROR] Failed to execute goal on project ${p.path}: Could not resolve dependencies for project com.acme:${p.path}:jar:2.8.0-SNAPSHOT`,
        '[ERROR] dependency: com.acme.platform:payments-client:jar:1.14.0 (compile)',
        `[ERROR] \tcom.acme.platform:payments-client:jar:1.14.0 was not found in https://gitlab.acme.example/api/v4/groups/acme/-/packages/maven during a previous attempt. This failure was cached in the local repository and resolution is not reattempted until the update interval of gitlab-maven has elapsed or updates are forced`,
        '[ERROR] -> [Help 1]',
        '[ERROR] ',
        '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.',
        '[ERROR] Re-run Maven using the -X switch to enable full debug logging.',
        '[ERROR] ',
        '[ERROR] For more information about the errors and possible solutions, please read the following articles:',
        '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/DependencyResolutionException',
      ],
    };
  },
} satisfies FailureWriters;
