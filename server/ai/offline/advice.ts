// What to do next about a diagnosed failure: advice for the exact failures the line rules
// recognise, then the category's general advice in the failing tool's terms.
import { FAMILIES } from '../distill/rules/families.ts';
import { DISK_FULL } from '../distill/rules/families/machine.ts';
import { ADVICE_PRECEDENCE } from '../distill/rules/precedence.ts';
import type { FailureCategory, NamedAdvice } from '../distill/rules/rule.ts';
import type { DistilledLog } from '../distill/log-distiller.ts';
import { greenOnSameCommit, type JobContext } from '../job-context.ts';
import { NETWORK, RESOLUTION } from './failure-patterns.ts';
import { formatFix } from './format-check.ts';
import { reproduceAdvice } from './safe-commands.ts';

// The tool that failed, for advice in its terms (how to run one test, how to give it more memory).
function tool(distilled: DistilledLog): string {
  const cmd = distilled.failingCommand ?? '';
  const text = distilled.decisive.map((d) => d.text).join('\n');
  if (/\bjest\b|npm (?:run )?test|vitest/.test(cmd) || /● /.test(text)) return 'jest';
  if (/\brspec\b/.test(cmd) || /^rspec \.\//m.test(text)) return 'rspec';
  if (/pytest/.test(cmd + text)) return 'pytest';
  if (/\bgo (?:test|build|vet|mod)/.test(cmd)) return 'go';
  // `[ERROR]` alone is not Maven's: Amplify, Cloudflare Pages and others prefix their lines so too.
  if (
    /\bmvn\b/.test(cmd + text) ||
    /\[ERROR\].*(?:BUILD FAILURE|Failed to execute goal|maven)/s.test(text)
  )
    return 'maven';
  if (/gradlew?\b/.test(cmd) || /FAILURE: Build failed/.test(text)) return 'gradle';
  if (/\bcargo\b/.test(cmd)) return 'cargo';
  if (/\bdocker\b/.test(cmd)) return 'docker';
  if (/\bnpm\b|\bnpx\b|\byarn\b|\bpnpm\b/.test(cmd)) return 'npm';
  if (/\bpip\b|python/.test(cmd)) return 'python';
  if (/terraform/.test(cmd)) return 'terraform';
  if (/\bhelm\b/.test(cmd)) return 'helm';
  return '';
}

const YAML_SYNTAX =
  /yaml: line \d+|YAMLException|mapping values are not allowed|did not find expected|could not find expected|found character that cannot start|while (?:parsing|scanning) a/i;

// Each configuration's own checker, none of which changes anything remote. An answer about a
// Terraform file that also lists helm and compose sends its reader to tools of another stack, so
// only the checker of the file that failed is named (the first that matches, most specific first).
const VALIDATORS: readonly {
  when: (t: string, text: string, where: string) => boolean;
  step: string;
}[] = [
  {
    when: (_t, text, where) => /\.gitlab-ci\.ya?ml/.test(where + text),
    step: 'Check .gitlab-ci.yml before pushing with GitLab’s CI Lint (the pipeline editor’s Validate tab, or `glab ci lint`).',
  },
  {
    when: (t, text, where) =>
      t === 'terraform' || /\.tf(?:vars)?\b/.test(where) || /^\s*│ Error:/m.test(text),
    step: 'Check it locally with `terraform init -backend=false && terraform validate` (and `terraform fmt -check`): neither reads state nor touches remote resources.',
  },
  {
    when: (t, text) => t === 'helm' || /\bhelm\b|Chart\.ya?ml/.test(text),
    step: 'Check the chart locally with `helm lint <chart>` and render it with `helm template <chart>`: neither installs anything.',
  },
  {
    when: (_t, text, where) => /docker[- ]compose|\bcompose\.ya?ml/.test(where + text),
    step: 'Check it locally with `docker compose config`, which parses and prints the file without starting anything.',
  },
  {
    when: (_t, text) => /\bkubectl\b/.test(text),
    step: 'Check the manifest against the cluster without changing it: `kubectl apply --dry-run=server -f <file>` (or `kubectl diff -f <file>`).',
  },
  {
    // Build checks lint the Dockerfile; a COPY source missing from the context shows only in a build.
    when: (_t, text) => /dockerfile parse error|unknown instruction/i.test(text),
    step: 'Check the Dockerfile locally with `docker build --check .`, which runs its build checks without building.',
  },
  {
    // Maven's own words for a pom it cannot read; `validate` checks nothing a compiler would.
    when: (_t, text) =>
      /Malformed POM|Non-parseable POM|Some problems were encountered while processing the POMs/.test(
        text,
      ),
    step: 'Check the pom locally with `mvn validate` before pushing.',
  },
  {
    // A YAML syntax error as the common parsers word it, not any line that names a .yaml file.
    when: (_t, text) => YAML_SYNTAX.test(text),
    step: 'Check its syntax locally with `yamllint <file>` before pushing.',
  },
];

/** How to check the failing configuration locally, with its own tool; none when no tool is known. */
function validateStep(t: string, text: string, locations: string[]): string | undefined {
  const where = locations.join('\n');
  return VALIDATORS.find((v) => v.when(t, text, where))?.step;
}

const ADVICE_BY_NAME = new Map<string, NamedAdvice>(
  FAMILIES.flatMap((f) => f.advice.map((a) => [a.name, a])),
);
/**
 * Advice for failures the line rules recognise precisely (gates, deploy tools), from the rule
 * families in ADVICE_PRECEDENCE order; every entry whose category and pattern match adds its steps.
 */
export const SPECIFIC_ADVICE: readonly NamedAdvice[] = ADVICE_PRECEDENCE.map((name) =>
  ADVICE_BY_NAME.get(name)!,
);
if (
  new Set(ADVICE_PRECEDENCE).size !== ADVICE_PRECEDENCE.length ||
  SPECIFIC_ADVICE.length !== ADVICE_BY_NAME.size
) {
  throw new Error('ADVICE_PRECEDENCE names every advice exactly once');
}

/** The next steps for a failure of this category: specific advice first, then the category's. */
export function nextStepsFor(
  category: FailureCategory,
  distilled: DistilledLog,
  locations: string[],
  context: JobContext | undefined,
): string[] {
  const cmd = distilled.failingCommand;
  // A formatter's check fails by listing files: formatting them is the whole fix, whatever the
  // category (no rule knows a bare list of paths).
  const format = cmd ? formatFix(cmd) : undefined;
  if (format) {
    return [
      `The formatter’s check lists the files it would change (quoted above): run \`${format}\` locally and commit the result.`,
      'If it passes locally, your formatter is another version than the job’s image has: compare `--version` in both and pin it.',
    ];
  }
  // Never a deploy, push or migration from a laptop: its read-only equivalent instead.
  const runIt = cmd ? reproduceAdvice(cmd) : undefined;
  const first = locations[0] ? ` Start at \`${locations[0]}\`.` : '';
  const text = distilled.decisive.map((d) => d.text).join('\n');
  const t = tool(distilled);
  const prev = context?.previousSuccess;
  const sameCommit = greenOnSameCommit(context);
  const specific = SPECIFIC_ADVICE.filter((a) => a.category === category && a.when.test(text));
  const steps: (string | undefined)[] = specific.flatMap((a) =>
    a.reproduce ? [...a.steps, runIt] : a.steps,
  );
  // Advice for the exact failure says what the general advice would only guess at.
  switch (specific.some((a) => a.instead) ? undefined : category) {
    case 'test_failure':
      steps.push(
        `Read the first failing test and its expected vs. actual values (quoted above).${first}`,
        runIt,
        t === 'jest'
          ? 'Run only that test: `npx jest <file> -t "<test name>"`.'
          : t === 'pytest'
            ? 'Run only that test: `pytest <file>::<test> -x -vv`.'
            : t === 'rspec'
              ? // RSpec prints each failed example's own rerun command under "Failed examples:".
                'Run only that example: `bundle exec rspec <file>:<line>` (the `rspec ./spec/…` line under “Failed examples:” is that command).'
              : t === 'go'
                ? 'Run only that test: `go test ./<pkg> -run <TestName> -count=1 -v`.'
                : t === 'maven'
                  ? 'Run only that test: `mvn -Dtest=<Class>#<method> test`.'
                  : t === 'gradle'
                    ? 'Run only that test: `./gradlew test --tests <Class.method>`.'
                    : t === 'cargo'
                      ? 'Run only that test: `cargo test <name> -- --nocapture`.'
                      : undefined,
        'If it passes locally, look for order dependence, shared state, time zones or timing (retry the job once to rule out a flaky test).',
      );
      break;
    case 'compile_error':
      steps.push(
        `Fix the first error first; later ones often follow from it.${first}`,
        runIt,
        sameCommit
          ? // The code did not change, so what the build ran with did.
            'The same commit built before, so the code is not what changed: compare the compiler, linter and dependency versions the two runs installed (an unpinned tool or a new release of a dependency) and clear the build cache.'
          : 'Check whether this commit changed a signature, an import or a dependency version that the failing file relies on.',
      );
      break;
    case 'dependency_network':
      if (/toomanyrequests|pull rate limit|429 Too Many Requests/i.test(text)) {
        steps.push(
          'The registry is rate-limiting this runner’s pulls, not failing: retrying at once usually hits the same limit.',
          'Authenticate the pulls (a `docker login` with a token kept in a masked CI/CD variable), or pull through GitLab’s Dependency Proxy or a registry mirror so the limit counts against your group, not the runner’s IP.',
        );
      } else if (
        /checksums? did NOT match|checksum mismatch|verifying .*: checksum mismatch/i.test(text)
      ) {
        steps.push(
          'A download no longer matches its pinned checksum: the upstream file changed (a re-tagged release, a moved tarball) or the download was corrupted.',
          'Check the file upstream, then update the pinned version and checksum together; do not turn verification off.',
        );
      } else if (
        /certificate verify failed|SSL certificate problem|subject alternative name|issuer certificate|certificate has expired/i.test(
          text,
        )
      ) {
        steps.push(
          'The TLS certificate of the host was refused: it names another host, has expired, or is signed by a CA the image does not trust (a company proxy, an outdated `ca-certificates`).',
          'Update the image’s CA bundle (`apt-get install ca-certificates`, `update-ca-certificates`) or add the proxy’s CA; fix the URL if the certificate is for another host. Do not disable verification.',
          runIt,
        );
      } else if (
        /failed to run custom build command for `|Failed to build installable wheels|Could not build wheels for|subprocess-exited-with-error|metadata-generation-failed/.test(
          text,
        )
      ) {
        steps.push(
          'A dependency is built from source here and its native build failed, usually for a system library or tool the image lacks (the lines above name it: `openssl`, `pkg-config`, `libpq`, a C compiler).',
          'Install it in the image or in `before_script` (for example `apt-get install -y pkg-config libssl-dev`), or use a version of the package that ships a prebuilt wheel or binary for this platform.',
          runIt,
        );
      } else if (
        (NETWORK.test(text) || /: no such host\b/.test(text)) &&
        // pip lists the versions it saw; "none" after connection errors means it reached no index.
        (!RESOLUTION.test(text) || /\(from versions: none\)/.test(text))
      ) {
        steps.push(
          'Retry the job: network errors to registries are often transient.',
          'If it keeps failing, check the registry or mirror status and the runner’s DNS, proxy (HTTP_PROXY/NO_PROXY) and firewall settings.',
          'Cache dependencies between jobs (GitLab `cache:`) or use a registry mirror to depend less on the network.',
        );
      } else if (/\bERESOLVE\b|peer dep|Conflicting peer dependency/i.test(text)) {
        steps.push(
          'This is an npm peer-dependency conflict, not a network problem: retrying will fail the same way. Read the `Found:` and `Could not resolve dependency: peer …` lines above: one package needs a different version of the other.',
          'Resolve it by upgrading (or downgrading) the package that declares the peer dependency to a release that accepts the installed version, or align the versions in package.json; `npm ls <package>` shows who pulls which version.',
          'Then regenerate and commit package-lock.json. `--legacy-peer-deps` or `--force` only hide the conflict.',
        );
      } else if (
        /nothing provides|No match for argument|unresolvable|has unmet dependencies|Unable to locate package/i.test(
          text,
        )
      ) {
        steps.push(
          'The build root cannot install a required package: a build dependency is named or versioned wrongly, or no enabled repository provides it. Retrying will not help.',
          'Check the BuildRequires (or install list) against what the target distribution ships (`dnf repoquery --whatprovides <capability>`, `zypper se --provides`, `apt-cache policy`), and enable the repository that has it or wait until it lands.',
          runIt,
        );
      } else {
        steps.push(
          // Maven and Gradle resolve from the pom or build script; they keep no lock file by default.
          t === 'maven' || t === 'gradle'
            ? 'Check that the artifact named above exists at that version in the repositories the build declares (the pom or build script, settings.xml), and fix the coordinates or add the repository that has it.'
            : 'Fix the version constraint or the missing package named above, then regenerate and commit the lock file.',
          t === 'npm'
            ? 'For npm peer-dependency conflicts, align the versions (`npm ls <package>`); `--legacy-peer-deps` only hides the conflict.'
            : t === 'python'
              ? 'Check the package exists for this Python version and platform (`pip index versions <package>`), or add the missing package to the requirements.'
              : undefined,
          runIt,
        );
      }
      break;
    case 'oom_killed':
      steps.push(
        'Give the job more memory (a larger runner, or the Kubernetes executor’s memory limit/request) or make it use less.',
        t === 'npm' || t === 'jest'
          ? 'For Node: raise the heap (`NODE_OPTIONS=--max-old-space-size=4096`) or run fewer workers (`jest --maxWorkers=2`).'
          : t === 'gradle' || t === 'maven'
            ? 'For the JVM: set `-Xmx` (`org.gradle.jvmargs` / `MAVEN_OPTS`) below the container limit and reduce parallel workers.'
            : 'Reduce parallelism (`make -j`, worker counts, batch sizes) so peak memory fits the container limit.',
        'Exit code 137 means the process was killed (SIGKILL), usually by the out-of-memory killer.',
      );
      break;
    case 'timeout':
      steps.push(
        'Look at the last lines before the timeout (quoted above): that is what was running when time ran out.',
        'If a step hangs (waiting for input, a service or a lock), fix that rather than raising the limit; add timeouts to individual tests and network calls.',
        'If the job is genuinely slower now, raise `timeout:` in .gitlab-ci.yml (or the project’s CI/CD timeout), cache dependencies, or split it with `parallel:`.',
      );
      break;
    case 'permission_auth':
      if (/Permission denied/.test(text) && !/publickey|denied:|HTTP/i.test(text)) {
        steps.push(
          'Make the script executable and commit the mode: `git update-index --chmod=+x <script>` (or call it with `bash <script>`).',
          'If a file or directory is meant to be written, check the user the image runs as and the path’s ownership.',
        );
      } else {
        steps.push(
          'Check the credential the job uses: the CI/CD variable holding it, its expiry and its scopes (e.g. `read_registry`/`write_registry`, `read_api`).',
          'Protected variables are only available on protected branches and tags; check this ref is protected if the job relies on one.',
          'For another project’s repository or registry, allow this project in that project’s CI/CD job token settings, or use a deploy token.',
        );
      }
      break;
    case 'config_yaml':
      if (/413 Request Entity Too Large|too large archive/.test(text)) {
        steps.push(
          'GitLab refused the artifacts archive: it is over the instance’s or project’s maximum artifacts size. Narrow `artifacts:paths` (or add `artifacts:exclude`) to what later jobs and people need, or ask an administrator to raise the limit.',
        );
      }
      if (/invalid (?:target|source) release|release version \d+ not supported/i.test(text)) {
        steps.push(
          'The JDK in the job’s image is older than the Java release the build compiles for: use an image with that JDK (for example `eclipse-temurin:17`, or `setup-java`’s `java-version`), or lower `maven.compiler.release` / Gradle’s toolchain version to match.',
        );
      }
      steps.push(
        locations[0]
          ? `Fix the file and line named above.${first}`
          : 'Fix the setting the error names (the quoted lines say which).',
        validateStep(t, `${distilled.failingCommand ?? ''}\n${text}`, locations),
        runIt,
      );
      break;
    case 'script_error':
      steps.push(
        runIt,
        /command not found|exit code 127/.test(text) || distilled.exitCode === 127
          ? 'A command is missing from the image: install it in the image or in `before_script`, or use an image that has it.'
          : undefined,
        DISK_FULL.test(text)
          ? 'The runner’s disk is full: the first “No space left” is where it ran out. Free space in the job (remove build outputs and caches you do not need, `docker system prune` on a shell runner), keep fewer artifacts, or use a runner with a larger disk.'
          : undefined,
        /Gradle build daemon disappeared unexpectedly/.test(text)
          ? 'The Gradle daemon died mid-build, most often killed for memory (https://github.com/gradle/gradle/issues/9371): keep `org.gradle.jvmargs` -Xmx well below the container’s limit, run fewer workers (`--max-workers`), or give the job more memory.'
          : undefined,
        /Segmentation fault|core dumped|Error 139/.test(text)
          ? 'A segmentation fault is a crash in native code: run the test binary under a debugger or with sanitizers (`-fsanitize=address`).'
          : undefined,
        'Exit codes: 1 = the command reported failure, 126 = not executable, 127 = command not found, 137 = killed (often OOM), 139 = segfault.',
      );
      break;
  }
  if (prev?.commit && context?.commit) {
    // The same commit passed before: there are no commits to compare, only the two runs.
    steps.push(
      sameCommit
        ? `The last green run (job #${prev.jobId}) built this same commit: compare its runner, image and services with this run's${category === 'test_failure' ? '' : ', and retry once to confirm it is intermittent'}.`
        : `Compare with the last green run: \`git log ${prev.commit.shortId}..${context.commit.shortId}\` lists the commits since.`,
    );
  }
  return steps.filter((s): s is string => s !== undefined);
}
