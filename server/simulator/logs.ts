import type { FailureKind, SimJob, SimPipeline, SimProject, ToolKind } from './model.ts';
import { IMAGES, TOPICS } from './catalog.ts';
import { hashSeed, rngFor, type Rng } from './random.ts';

// Escapes exactly as gitlab-runner writes them.
const CLEAR = '\x1b[0K';
const RESET = '\x1b[0;m';
const CYAN = '\x1b[36;1m';
const GREEN = '\x1b[32;1m';
const RED = '\x1b[31;1m';
const YELLOW = '\x1b[0;33m';
const BOLD = '\x1b[1m';
const PLAIN = '\x1b[0m';

/** What a trace is rendered from. */
export interface TraceContext {
  seed: number;
  project: SimProject;
  pipeline: SimPipeline;
  job: SimJob;
}

interface Command {
  cmd: string;
  out: string[];
}

interface FailureText {
  /** Fail during dependency setup instead of the main command. */
  early: boolean;
  lines: string[];
  exit: 'exit code 1' | 'exit code 137' | 'timeout';
}

function sectionStart(ts: number, name: string, header: string): string {
  return `${CLEAR}section_start:${ts}:${name}\r${CLEAR}${CLEAR}${CYAN}${header}${RESET}`;
}

function sectionEnd(ts: number, name: string): string {
  return `section_end:${ts}:${name}\r${CLEAR}`;
}

function cmdLine(cmd: string): string {
  return `${GREEN}$ ${cmd}${RESET}`;
}

function words(project: SimProject): string[] {
  return TOPICS[project.kind].map((t) =>
    t
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, ''),
  );
}

function camel(word: string): string {
  return word
    .split('_')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join('');
}

function kebab(word: string): string {
  return word.replace(/_/g, '-');
}

function secs(rng: Rng, min: number, max: number): string {
  return rng.float(min, max).toFixed(3);
}

function goModule(project: SimProject): string {
  return `gitlab.acme.example/${project.fullPath}`;
}

/** Dependency setup commands per tool. */
function setupFor(tool: ToolKind, ctx: TraceContext, rng: Rng): Command[] {
  const p = ctx.project;
  switch (tool) {
    case 'npm-build':
    case 'jest':
    case 'npm-audit':
    case 'eslint':
    case 'tsc': {
      const n = rng.int(600, 1900);
      return [
        { cmd: 'node --version && npm --version', out: ['v20.15.1', '10.7.0'] },
        {
          cmd: 'npm ci --prefer-offline --no-audit',
          out: [
            `${YELLOW}npm warn${PLAIN} deprecated inflight@1.0.6: This module is not supported, and leaks memory.`,
            '',
            `added ${n} packages in ${rng.int(9, 48)}s`,
            '',
            `${rng.int(80, 260)} packages are looking for funding`,
            '  run `npm fund` for details',
          ],
        },
      ];
    }
    case 'go-build':
    case 'go-test':
    case 'golangci-lint':
      return [
        { cmd: 'go version', out: ['go version go1.22.5 linux/amd64'] },
        {
          cmd: 'go mod download -x 2>&1 | tail -n 3',
          out: [
            '# get https://proxy.golang.org/github.com/prometheus/client_golang/@v/v1.19.1.zip: 200 OK (0.214s)',
            '# get https://proxy.golang.org/google.golang.org/grpc/@v/v1.64.0.zip: 200 OK (0.388s)',
            '# get https://proxy.golang.org/go.uber.org/zap/@v/v1.27.0.zip: 200 OK (0.102s)',
          ],
        },
      ];
    case 'cargo-build':
    case 'cargo-test':
    case 'clippy':
      return [
        {
          cmd: 'rustc --version && cargo --version',
          out: ['rustc 1.79.0 (129f3b996 2024-06-10)', 'cargo 1.79.0 (ffa9cf99a 2024-06-03)'],
        },
        {
          cmd: 'cargo fetch --locked',
          out: [
            `${BOLD}\x1b[32m    Updating${PLAIN} crates.io index`,
            `${BOLD}\x1b[32m  Downloaded${PLAIN} ${rng.int(140, 320)} crates (${rng.float(12, 60).toFixed(1)} MB) in ${secs(rng, 2, 9)}s`,
          ],
        },
      ];
    case 'pytest':
    case 'mypy':
    case 'ruff':
    case 'mkdocs':
      return [
        { cmd: 'python --version', out: ['Python 3.12.4'] },
        {
          cmd: 'pip install --quiet -r requirements-dev.txt',
          out: [
            `${YELLOW}WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.${PLAIN}`,
          ],
        },
      ];
    case 'maven-compile':
    case 'maven-test':
    case 'checkstyle':
      return [
        {
          cmd: 'mvn -B -q -s ci_settings.xml dependency:go-offline',
          out: [
            '[INFO] Scanning for projects...',
            `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/springframework/boot/spring-boot-dependencies/3.3.1/spring-boot-dependencies-3.3.1.pom (${rng.int(90, 120)} kB at ${rng.int(400, 2000)} kB/s)`,
          ],
        },
      ];
    case 'terraform-fmt':
    case 'terraform-validate':
    case 'terraform-plan':
    case 'terraform-apply':
      return [
        {
          cmd: 'terraform init -input=false -backend-config="address=${TF_ADDRESS}"',
          out: [
            '',
            `${BOLD}Initializing the backend...${PLAIN}`,
            '',
            `${BOLD}Initializing provider plugins...${PLAIN}`,
            '- Finding hashicorp/aws versions matching "~> 5.50"...',
            '- Installing hashicorp/aws v5.57.0...',
            '- Installed hashicorp/aws v5.57.0 (signed by HashiCorp)',
            '',
            `${BOLD}\x1b[32mTerraform has been successfully initialized!${PLAIN}`,
          ],
        },
      ];
    case 'helm-lint':
    case 'chart-testing':
      return [
        {
          cmd: 'helm dependency build charts/api-gateway',
          out: [
            'Hang tight while we grab the latest from your chart repositories...',
            '...Successfully got an update from the "bitnami" chart repository',
            'Update Complete. ⎈Happy Helming!⎈',
            'Saving 2 charts',
          ],
        },
      ];
    case 'link-check':
      return [];
    case 'gradle':
      return [
        {
          cmd: './gradlew --version --no-daemon | head -n 3',
          out: ['', '------------------------------------------------------------', 'Gradle 8.8'],
        },
      ];
    case 'xcode':
      return [
        {
          cmd: 'bundle install --quiet && bundle exec pod install',
          out: [
            'Analyzing dependencies',
            `Downloading dependencies`,
            `Generating Pods project`,
            `Pod installation complete! There are ${rng.int(18, 40)} dependencies from the Podfile and ${rng.int(40, 90)} total pods installed.`,
          ],
        },
      ];
    case 'docker-build':
      return [
        {
          cmd: 'echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin "$CI_REGISTRY"',
          out: [
            `${YELLOW}WARNING! Your password will be stored unencrypted in /root/.docker/config.json.${PLAIN}`,
            'Login Succeeded',
          ],
        },
      ];
    case 'deploy':
      return [
        {
          cmd: `kubectl config use-context ${p.group.fullPath.split('/')[0]}/platform/infra/agents:${ctx.pipeline.tag ? 'production' : 'staging'}`,
          out: [
            `Switched to context "${p.group.fullPath.split('/')[0]}/platform/infra/agents:${ctx.pipeline.tag ? 'production' : 'staging'}".`,
          ],
        },
      ];
  }
}

/** The main command and its successful output; `fillers` are extra lines for long/verbose runs. */
function mainFor(tool: ToolKind, ctx: TraceContext, rng: Rng): Command {
  const p = ctx.project;
  const ws = words(p);
  switch (tool) {
    case 'npm-build':
      return {
        cmd: 'npm run build',
        out: [
          '',
          `> ${p.path}@${rng.int(1, 4)}.${rng.int(0, 30)}.0 build`,
          '> tsc -p tsconfig.build.json && vite build',
          '',
          `\x1b[36mvite v5.3.3 \x1b[32mbuilding for production...${PLAIN}`,
          `transforming...`,
          `\x1b[32m✓${PLAIN} ${rng.int(400, 2400)} modules transformed.`,
          `rendering chunks...`,
          `computing gzip size...`,
          `\x1b[2mdist/\x1b[22m\x1b[32mindex.html                 ${PLAIN}\x1b[1m\x1b[2m  0.46 kB${PLAIN}\x1b[2m │ gzip:  0.30 kB${PLAIN}`,
          `\x1b[2mdist/\x1b[22m\x1b[35massets/index-${rng.hex(8)}.css  ${PLAIN}\x1b[1m\x1b[2m ${rng.int(20, 90)}.${rng.int(10, 99)} kB${PLAIN}\x1b[2m │ gzip:  ${rng.int(5, 20)}.${rng.int(10, 99)} kB${PLAIN}`,
          `\x1b[2mdist/\x1b[22m\x1b[36massets/index-${rng.hex(8)}.js   ${PLAIN}\x1b[1m\x1b[2m${rng.int(200, 900)}.${rng.int(10, 99)} kB${PLAIN}\x1b[2m │ gzip: ${rng.int(60, 250)}.${rng.int(10, 99)} kB${PLAIN}`,
          `\x1b[32m✓ built in ${secs(rng, 6, 40).slice(0, -1)}s${PLAIN}`,
        ],
      };
    case 'jest': {
      const suites = rng.int(12, 60);
      const tests = suites * rng.int(4, 12);
      const out: string[] = [''];
      for (let i = 0; i < Math.min(suites, 14); i++) {
        const w = ws[i % ws.length]!;
        out.push(
          `\x1b[0m\x1b[7m\x1b[1m\x1b[32m PASS \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2msrc/${kebab(w)}/\x1b[22m\x1b[1m${kebab(w)}${i > ws.length ? `-${i}` : ''}.test.ts\x1b[22m (${secs(rng, 0.4, 9).slice(0, -1)} s)`,
        );
      }
      out.push(
        '',
        `\x1b[1mTest Suites: \x1b[22m\x1b[1m\x1b[32m${suites} passed\x1b[39m\x1b[22m, ${suites} total`,
        `\x1b[1mTests:       \x1b[22m\x1b[1m\x1b[32m${tests} passed\x1b[39m\x1b[22m, ${tests} total`,
        `\x1b[1mSnapshots:   \x1b[22m\x1b[1m\x1b[32m${rng.int(0, 30)} passed\x1b[39m\x1b[22m, ${rng.int(30, 40)} total`,
        `\x1b[1mTime:\x1b[22m        ${secs(rng, 20, 200)} s`,
        '\x1b[2mRan all test suites\x1b[22m\x1b[2m.\x1b[22m',
      );
      if (ctx.job.template.coverage)
        out.push(
          `All files  |   ${(ctx.job.coverage ?? 80).toFixed(2)} |    71.38 |   79.02 |   ${(ctx.job.coverage ?? 80).toFixed(2)} |`,
        );
      return { cmd: 'npx jest --ci --reporters=default --reporters=jest-junit --coverage', out };
    }
    case 'npm-audit':
      return { cmd: 'npm audit --audit-level=high --omit=dev', out: [`found 0 vulnerabilities`] };
    case 'eslint':
      return { cmd: 'npx eslint --max-warnings=0 .', out: [] };
    case 'tsc':
      return { cmd: 'npx tsc --noEmit -p tsconfig.json', out: [] };
    case 'go-build':
      return {
        cmd: 'CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/ ./cmd/...',
        out: [],
      };
    case 'go-test': {
      const out: string[] = [];
      for (const w of ws) {
        out.push(
          `ok  \t${goModule(p)}/internal/${w.replace(/_/g, '')}\t${secs(rng, 0.1, 6)}s\tcoverage: ${rng.float(55, 95).toFixed(1)}% of statements`,
        );
      }
      out.push(`?   \t${goModule(p)}/cmd/server\t[no test files]`);
      return { cmd: 'go test -race -count=1 -coverprofile=coverage.out ./...', out };
    }
    case 'golangci-lint':
      return { cmd: 'golangci-lint run --timeout 5m ./...', out: [] };
    case 'docker-build': {
      const out = [
        `#0 building with "default" instance using docker driver`,
        '',
        '#1 [internal] load build definition from Dockerfile',
        '#1 DONE 0.0s',
      ];
      for (let i = 2; i < 9; i++)
        out.push(
          `#${i} [${i - 1}/7] ${rng.pick(['RUN apk add --no-cache ca-certificates', 'COPY go.mod go.sum ./', 'RUN go mod download', 'COPY . .', 'RUN make build', 'RUN pip install --no-cache-dir -r requirements.txt', 'COPY --from=build /app /app'])}`,
          `#${i} DONE ${secs(rng, 0.1, 40).slice(0, -2)}s`,
        );
      out.push(
        `#9 exporting to image`,
        `#9 naming to registry.acme.example/${p.fullPath}:${ctx.pipeline.sha.slice(0, 8)} done`,
        '#9 DONE 1.2s',
      );
      return { cmd: `docker build --pull -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA" .`, out };
    }
    case 'cargo-build': {
      const out: string[] = [];
      for (const c of [
        'libc v0.2.155',
        'proc-macro2 v1.0.86',
        'serde v1.0.204',
        'tokio v1.38.0',
        'tantivy v0.22.0',
        `${p.path} v0.${rng.int(3, 30)}.0 (/builds/${p.fullPath})`,
      ]) {
        out.push(`${BOLD}\x1b[32m   Compiling${PLAIN} ${c}`);
      }
      out.push(
        `${BOLD}\x1b[32m    Finished${PLAIN} \`release\` profile [optimized] target(s) in ${rng.int(1, 6)}m ${rng.int(0, 59)}s`,
      );
      return { cmd: 'cargo build --release --locked', out };
    }
    case 'cargo-test': {
      const n = rng.int(40, 220);
      return {
        cmd: 'cargo test --locked --all-features',
        out: [
          `${BOLD}\x1b[32m    Finished${PLAIN} \`test\` profile [unoptimized + debuginfo] target(s) in ${rng.int(40, 200)}.${rng.int(10, 99)}s`,
          `${BOLD}\x1b[32m     Running${PLAIN} unittests src/lib.rs (target/debug/deps/${p.path.replace(/-/g, '_')}-${rng.hex(16)})`,
          '',
          `running ${n} tests`,
          `test result: \x1b[32mok\x1b[0m. ${n} passed; 0 failed; ${rng.int(0, 3)} ignored; 0 measured; 0 filtered out; finished in ${secs(rng, 0.5, 30).slice(0, -1)}s`,
        ],
      };
    }
    case 'clippy':
      return {
        cmd: 'cargo clippy --all-targets --locked -- -D warnings',
        out: [
          `${BOLD}\x1b[32m    Checking${PLAIN} ${p.path} v0.${rng.int(3, 30)}.0 (/builds/${p.fullPath})`,
          `${BOLD}\x1b[32m    Finished${PLAIN} \`dev\` profile [unoptimized + debuginfo] target(s) in ${rng.int(20, 90)}.${rng.int(10, 99)}s`,
        ],
      };
    case 'pytest': {
      const n = rng.int(120, 640);
      const out = [
        '\x1b[1m============================= test session starts ==============================\x1b[0m',
        'platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0',
        `rootdir: /builds/${p.fullPath}`,
        'configfile: pyproject.toml',
        'plugins: cov-5.0.0, xdist-3.6.1',
        `collected ${n} items`,
        '',
      ];
      let pct = 0;
      for (const w of ws) {
        pct = Math.min(100, pct + Math.ceil(100 / ws.length));
        out.push(
          `tests/test_${w}.py \x1b[32m${'.'.repeat(rng.int(8, 40))}\x1b[0m\x1b[32m${' '.repeat(6)}[${String(pct).padStart(3)}%]\x1b[0m`,
        );
      }
      out.push(
        '',
        `\x1b[32m============================= \x1b[32m\x1b[1m${n} passed\x1b[0m\x1b[32m in ${secs(rng, 20, 300).slice(0, -1)}s\x1b[0m\x1b[32m ==============================\x1b[0m`,
      );
      return { cmd: 'pytest -n auto --cov=src --cov-report=term --junitxml=report.xml', out };
    }
    case 'mypy':
      return {
        cmd: 'mypy src',
        out: [`\x1b[1m\x1b[32mSuccess: no issues found in ${rng.int(40, 160)} source files\x1b[m`],
      };
    case 'ruff':
      return { cmd: 'ruff check --output-format=full src tests', out: ['All checks passed!'] };
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
    case 'terraform-fmt':
      return { cmd: 'terraform fmt -check -recursive', out: [] };
    case 'terraform-validate':
      return {
        cmd: 'terraform validate',
        out: [`\x1b[32m\x1b[1mSuccess!\x1b[0m The configuration is valid.`],
      };
    case 'terraform-plan': {
      const add = rng.int(0, 6);
      const change = rng.int(0, 4);
      return {
        cmd: 'terraform plan -input=false -out=plan.cache',
        out: [
          `module.vpc.aws_vpc.main: Refreshing state... [id=vpc-0${rng.hex(16)}]`,
          `module.eks.aws_eks_cluster.this: Refreshing state... [id=acme-${ctx.pipeline.tag ? 'prod' : 'staging'}]`,
          '',
          'Terraform used the selected providers to generate the following execution plan.',
          `\x1b[1mPlan:\x1b[0m ${add} to add, ${change} to change, 0 to destroy.`,
          '',
          'Saved the plan to: plan.cache',
        ],
      };
    }
    case 'terraform-apply':
      return {
        cmd: 'terraform apply -input=false plan.cache',
        out: [
          `\x1b[0m\x1b[1m\x1b[32mApply complete! Resources: ${rng.int(0, 6)} added, ${rng.int(0, 4)} changed, 0 destroyed.\x1b[0m`,
        ],
      };
    case 'helm-lint':
      return {
        cmd: 'helm lint charts/*',
        out: [
          '==> Linting charts/api-gateway',
          '[INFO] Chart.yaml: icon is recommended',
          '',
          `${rng.int(3, 12)} chart(s) linted, 0 chart(s) failed`,
        ],
      };
    case 'chart-testing':
      return {
        cmd: 'ct install --config ct.yaml',
        out: [
          'Installing chart "api-gateway => (version: \\"2.4.1\\", path: \\"charts/api-gateway\\")"...',
          'Creating namespace "api-gateway-x1k9q"...',
          'NAME: api-gateway-x1k9q',
          'STATUS: deployed',
          'REVISION: 1',
          '✔︎ api-gateway => (version: "2.4.1", path: "charts/api-gateway")',
          'All charts installed successfully',
        ],
      };
    case 'mkdocs':
      return {
        cmd: 'mkdocs build --strict',
        out: [
          'INFO    -  Cleaning site directory',
          `INFO    -  Building documentation to directory: /builds/${p.fullPath}/site`,
          `INFO    -  Documentation built in ${secs(rng, 2, 20).slice(0, -1)} seconds`,
        ],
      };
    case 'link-check':
      return {
        cmd: 'lychee --no-progress docs/',
        out: [`🔍 ${rng.int(300, 900)} Total ✅ ${rng.int(300, 900)} OK 🚫 0 Errors`],
      };
    case 'gradle':
      return {
        cmd: `./gradlew ${ctx.job.stage === 'test' ? 'testDebugUnitTest' : 'assembleRelease'} --no-daemon --stacktrace`,
        out: [
          '> Task :app:preBuild UP-TO-DATE',
          '> Task :app:compileReleaseKotlin',
          '> Task :app:assembleRelease',
          '',
          `\x1b[32;1mBUILD SUCCESSFUL\x1b[0m in ${rng.int(2, 14)}m ${rng.int(0, 59)}s`,
          `${rng.int(60, 300)} actionable tasks: ${rng.int(60, 300)} executed`,
        ],
      };
    case 'xcode':
      return {
        cmd: 'bundle exec fastlane ios build',
        out: [
          '[✔] 🚀 ',
          '+------------------+',
          '|   Lane Context   |',
          '+------------------+',
          `[${new Date(ctx.job.startedAt ?? 0).toISOString().slice(11, 19)}]: Driving the lane 'ios build' 🚀`,
          `▸ Compiling ${rng.int(200, 600)} Swift files`,
          '▸ Archive Succeeded',
          '[✔] fastlane.tools finished successfully 🎉',
        ],
      };
    case 'deploy': {
      const env = ctx.pipeline.tag
        ? 'production'
        : ctx.pipeline.refKind === 'merge-request'
          ? `review-${ctx.pipeline.branch.replace(/[^a-z0-9]+/g, '-')}`
          : 'staging';
      return {
        cmd: `helm upgrade --install ${p.path} charts/${p.path} -n ${env} --set image.tag=$CI_COMMIT_SHORT_SHA --wait --timeout 5m`,
        out: [
          `Release "${p.path}" has been upgraded. Happy Helming!`,
          `NAME: ${p.path}`,
          `LAST DEPLOYED: ${new Date(ctx.job.startedAt ?? 0).toUTCString()}`,
          `NAMESPACE: ${env}`,
          'STATUS: deployed',
          `REVISION: ${rng.int(20, 400)}`,
        ],
      };
    }
  }
}

/** Filler lines for long runs: progress, debug logging, or a chatty test suite. */
function fillerLines(tool: ToolKind, ctx: TraceContext, rng: Rng, count: number): string[] {
  const out: string[] = [];
  const base = Math.floor((ctx.job.startedAt ?? 0) / 1000);
  const ws = words(ctx.project);
  for (let i = 0; i < count; i++) {
    const ts = new Date((base + Math.floor(i / 8)) * 1000).toISOString();
    const w = ws[i % ws.length]!;
    if (tool === 'pytest')
      out.push(
        `${ts} DEBUG    src.${w}: processed batch ${i} (${rng.int(100, 5000)} rows) in ${rng.int(1, 400)}ms`,
      );
    else if (tool === 'maven-test' || tool === 'gradle')
      out.push(
        `${ts.slice(11, 23)} [main] DEBUG c.a.${w}.Repository - SELECT id, status FROM ${w}s WHERE tenant_id = ? [took ${rng.int(1, 90)}ms]`,
      );
    else if (tool === 'go-test')
      out.push(
        `    ${w}_test.go:${rng.int(20, 300)}: ${ts} level=debug msg="handled request" path=/v1/${kebab(w)} status=200 dur=${rng.int(1, 80)}ms`,
      );
    else
      out.push(
        `    \x1b[2mconsole.log\x1b[22m  [${ts}] ${w}: retrying request ${i} after ${rng.int(10, 500)}ms`,
      );
  }
  return out;
}

const ERESOLVE_PEERS = [
  ['react', '18.3.1', '^19.0.0', '@acme/design-system', '5.0.0'],
  ['eslint', '9.6.0', '^8.56.0', 'eslint-plugin-import', '2.29.1'],
  ['typescript', '5.5.3', '>=4.2.0 <5.4', '@typescript-eslint/parser', '6.21.0'],
] as const;

/** The tail of a failing run: what the tool printed when it failed. */
function failureFor(kind: FailureKind, tool: ToolKind, ctx: TraceContext, rng: Rng): FailureText {
  const p = ctx.project;
  const ws = words(p);
  const w = rng.pick(ws);
  const line = rng.int(12, 240);
  const col = rng.int(3, 40);
  switch (kind) {
    case 'jest-assertion': {
      const file = `src/${kebab(w)}/${kebab(w)}.test.ts`;
      const expected = rng.int(1, 500);
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          '',
          `\x1b[0m\x1b[7m\x1b[1m\x1b[31m FAIL \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2msrc/${kebab(w)}/\x1b[22m\x1b[1m${kebab(w)}.test.ts\x1b[22m (${secs(rng, 1, 12).slice(0, -1)} s)`,
          `  ${camel(w)}`,
          `    ${rng.pick(['computes', 'returns', 'handles'])} ${w.replace(/_/g, ' ')}`,
          `      \x1b[31m✕\x1b[39m \x1b[2m${rng.pick(['rejects an empty payload', 'keeps the newest record', 'retries after a 503', 'applies the discount once'])} (${rng.int(3, 900)} ms)\x1b[22m`,
          '',
          `\x1b[1m\x1b[31m  \x1b[1m● \x1b[22m\x1b[1m${camel(w)} › keeps the newest record\x1b[39m\x1b[22m`,
          '',
          `    \x1b[2mexpect(\x1b[22m\x1b[31mreceived\x1b[39m\x1b[2m).\x1b[22mtoEqual\x1b[2m(\x1b[22m\x1b[32mexpected\x1b[39m\x1b[2m) // deep equality\x1b[22m`,
          '',
          `    \x1b[32m- Expected  - 1\x1b[39m`,
          `    \x1b[31m+ Received  + 1\x1b[39m`,
          '',
          `    \x1b[2m  Object {\x1b[22m`,
          `    \x1b[32m-   "count": ${expected},\x1b[39m`,
          `    \x1b[31m+   "count": ${expected + rng.int(1, 3)},\x1b[39m`,
          `    \x1b[2m    "status": "ok",\x1b[22m`,
          `    \x1b[2m  }\x1b[22m`,
          '',
          `    \x1b[0m \x1b[90m ${line - 1} |\x1b[39m     \x1b[36mconst\x1b[39m result \x1b[33m=\x1b[39m \x1b[36mawait\x1b[39m service\x1b[33m.\x1b[39mrun(input)\x1b[33m;\x1b[39m`,
          `    \x1b[31m\x1b[1m>\x1b[22m\x1b[39m\x1b[90m ${line} |\x1b[39m     expect(result)\x1b[33m.\x1b[39mtoEqual({ count\x1b[33m:\x1b[39m \x1b[35m${expected}\x1b[39m\x1b[33m,\x1b[39m status\x1b[33m:\x1b[39m \x1b[32m'ok'\x1b[39m })\x1b[33m;\x1b[39m`,
          `     \x1b[90m    |\x1b[39m                    \x1b[31m\x1b[1m^\x1b[22m\x1b[39m`,
          '',
          `      \x1b[2mat Object.<anonymous> (\x1b[22m\x1b[2m\x1b[0m\x1b[36m${file}\x1b[39m\x1b[0m\x1b[2m:${line}:${col})\x1b[22m`,
          '',
          `\x1b[1mTest Suites: \x1b[22m\x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m, \x1b[1m\x1b[32m${rng.int(10, 50)} passed\x1b[39m\x1b[22m, ${rng.int(51, 60)} total`,
          `\x1b[1mTests:       \x1b[22m\x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m, \x1b[1m\x1b[32m${rng.int(100, 500)} passed\x1b[39m\x1b[22m, ${rng.int(501, 520)} total`,
          `\x1b[1mTime:\x1b[22m        ${secs(rng, 20, 200)} s`,
          '\x1b[2mRan all test suites\x1b[22m\x1b[2m.\x1b[22m',
        ],
      };
    }
    case 'pytest-assertion': {
      const fn = `test_${w}_${rng.pick(['keeps_latest', 'handles_nulls', 'is_idempotent', 'respects_timezone'])}`;
      const got = rng.int(2, 9);
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `tests/test_${w}.py \x1b[32m.......\x1b[0m\x1b[31mF\x1b[0m\x1b[32m....\x1b[0m\x1b[31m                                       [ 64%]\x1b[0m`,
          '',
          '=================================== FAILURES ===================================',
          `\x1b[31m\x1b[1m_____________________ ${fn} _____________________\x1b[0m`,
          '',
          `    def ${fn}():`,
          `        events = make_events(${got + 1}, duplicate_ids=True)`,
          `        result = ${w}.run(events)`,
          `>       assert len(result) == ${got - 1}`,
          `\x1b[1m\x1b[31mE       assert ${got} == ${got - 1}\x1b[0m`,
          `\x1b[1m\x1b[31mE        +  where ${got} = len([Event(id=1, ...), Event(id=2, ...), Event(id=2, ...)])\x1b[0m`,
          '',
          `\x1b[1m\x1b[31mtests/test_${w}.py\x1b[0m:${line}: AssertionError`,
          '=========================== short test summary info ============================',
          `\x1b[31mFAILED\x1b[0m tests/test_${w}.py::\x1b[1m${fn}\x1b[0m - assert ${got} == ${got - 1}`,
          `\x1b[31m========================= \x1b[31m\x1b[1m1 failed\x1b[0m, \x1b[32m${rng.int(100, 600)} passed\x1b[0m\x1b[31m in ${secs(rng, 20, 300).slice(0, -1)}s\x1b[0m\x1b[31m =========================\x1b[0m`,
        ],
      };
    }
    case 'junit-assertion': {
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
    }
    case 'go-test': {
      const pkg = w.replace(/_/g, '');
      const test = `Test${camel(w)}_${rng.pick(['Burst', 'ExpiredToken', 'Retry', 'Concurrent'])}`;
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `--- FAIL: ${test} (${secs(rng, 0.01, 2).slice(0, -1)}s)`,
          `    ${w}_test.go:${line}: expected status 429 after 10 requests, got 200`,
          `    ${w}_test.go:${line + 4}: `,
          '        \tError Trace:\t' +
            `/builds/${p.fullPath}/internal/${pkg}/${w}_test.go:${line + 4}`,
          '        \tError:      \tNot equal: ',
          '        \t            \texpected: 10',
          `        \t            \tactual  : ${rng.int(11, 14)}`,
          `        \tTest:       \t${test}`,
          'FAIL',
          `FAIL\t${goModule(p)}/internal/${pkg}\t${secs(rng, 0.1, 4)}s`,
          'FAIL',
        ],
      };
    }
    case 'tsc-error': {
      const file = `src/${kebab(w)}/${kebab(rng.pick(ws))}.ts`;
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `${file}(${line},${col}): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.`,
          "  Type 'undefined' is not assignable to type 'string'.",
          `${file}(${line + 17},${col + 2}): error TS2339: Property '${w.split('_')[0]}Id' does not exist on type '${camel(w)}Options'.`,
          '',
          `Found 2 errors in the same file, starting at: ${file}:${line}`,
          '',
        ],
      };
    }
    case 'go-compile': {
      const pkg = w.replace(/_/g, '');
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `# ${goModule(p)}/internal/${pkg}`,
          `internal/${pkg}/${w}.go:${line}:${col}: undefined: middleware.${camel(w)}`,
          `internal/${pkg}/${w}.go:${line + 13}:3: too many arguments in call to h.Register`,
          '\thave (string, http.HandlerFunc, Option)',
          '\twant (string, http.HandlerFunc)',
        ],
      };
    }
    case 'rust-compile': {
      const file = `src/${w}.rs`;
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `${BOLD}\x1b[32m   Compiling${PLAIN} ${p.path} v0.14.0 (/builds/${p.fullPath})`,
          `\x1b[0m\x1b[1m\x1b[38;5;9merror[E0308]\x1b[0m\x1b[0m\x1b[1m: mismatched types\x1b[0m`,
          `\x1b[0m   \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m--> \x1b[0m\x1b[0m${file}:${line}:${col}\x1b[0m`,
          '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m',
          `\x1b[0m\x1b[1m\x1b[38;5;12m${line}\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m\x1b[0m \x1b[0m\x1b[0m        self.flush(batch_size)?;\x1b[0m`,
          '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m\x1b[0m             \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m-----\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;9m^^^^^^^^^^\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;9mexpected `usize`, found `u32`\x1b[0m',
          '',
          `\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: could not compile \`${p.path}\` (lib) due to 1 previous error\x1b[0m`,
        ],
      };
    }
    case 'npm-eresolve': {
      const [dep, found, want, by, byVersion] = rng.pick(ERESOLVE_PEERS);
      return {
        early: true,
        exit: 'exit code 1',
        lines: [
          'npm error code ERESOLVE',
          'npm error ERESOLVE unable to resolve dependency tree',
          'npm error',
          `npm error While resolving: ${p.path}@${rng.int(1, 4)}.${rng.int(0, 30)}.0`,
          `npm error Found: ${dep}@${found}`,
          `npm error node_modules/${dep}`,
          `npm error   dev ${dep}@"^${found}" from the root project`,
          'npm error',
          'npm error Could not resolve dependency:',
          `npm error peer ${dep}@"${want}" from ${by}@${byVersion}`,
          `npm error node_modules/${by}`,
          `npm error   dev ${by}@"^${byVersion}" from the root project`,
          'npm error',
          'npm error Fix the upstream dependency conflict, or retry',
          'npm error this command with --force or --legacy-peer-deps',
          'npm error to accept an incorrect (and potentially broken) dependency resolution.',
          'npm error',
          'npm error',
          `npm error For a full report see:`,
          `npm error /root/.npm/_logs/${new Date(ctx.job.startedAt ?? 0).toISOString().replace(/:/g, '_')}-eresolve-report.txt`,
        ],
      };
    }
    case 'maven-dependency':
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
    case 'lint':
      return {
        early: false,
        exit: 'exit code 1',
        lines: lintFailure(tool, ctx, rng, w, line, col),
      };
    case 'terraform-error':
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          '',
          `\x1b[31m╷\x1b[0m\x1b[0m`,
          `\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mUnsupported attribute\x1b[0m`,
          '\x1b[31m│\x1b[0m \x1b[0m',
          `\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on modules/${kebab(w)}/main.tf line ${line}, in resource "aws_subnet" "private":`,
          `\x1b[31m│\x1b[0m \x1b[0m  ${line}:   vpc_id     = \x1b[4maws_vpc.main.idd\x1b[0m`,
          '\x1b[31m│\x1b[0m \x1b[0m',
          '\x1b[31m│\x1b[0m \x1b[0mThis object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?',
          '\x1b[31m╵\x1b[0m\x1b[0m',
        ],
      };
    case 'rollout':
      return {
        early: false,
        exit: 'exit code 1',
        lines: [
          `Waiting for deployment "${p.path}" rollout to finish: 1 of 3 updated replicas are available...`,
          `Waiting for deployment "${p.path}" rollout to finish: 1 of 3 updated replicas are available...`,
          `${p.path}-7d9f8c6b5-x2l4k   0/1     CrashLoopBackOff   4 (31s ago)   2m10s`,
          `Error: UPGRADE FAILED: context deadline exceeded`,
          `error: deployment "${p.path}" exceeded its progress deadline`,
        ],
      };
    case 'oom-killed': {
      const lines: string[] = [];
      if (tool === 'jest' || tool === 'npm-build' || tool === 'tsc') {
        lines.push(
          '',
          '<--- Last few GCs --->',
          '',
          `[${rng.int(30, 400)}:0x${rng.hex(8)}]   ${rng.int(40000, 90000)} ms: Mark-Compact 2037.1 (2083.4) -> 2025.9 (2084.9) MB, 1618.23 / 0.00 ms  (average mu = 0.112, current mu = 0.045) allocation failure; scavenge might not succeed`,
          '',
          '<--- JS stacktrace --->',
          '',
          'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
        );
      }
      lines.push(
        `/usr/bin/bash: line ${rng.int(120, 200)}: ${rng.int(40, 400)} Killed                  ${mainFor(tool, ctx, rngFor(ctx.seed, 'oom-cmd')).cmd}`,
      );
      return { early: false, exit: 'exit code 137', lines };
    }
    case 'timeout':
      return {
        early: false,
        exit: 'timeout',
        lines: fillerLines(tool, ctx, rng, rng.int(20, 60)).concat([
          `${YELLOW}WARNING: step_script could not run to completion because the timeout was exceeded. For more control over job and script timeouts see: https://docs.gitlab.com/ee/ci/runners/configure_runners.html#set-script-and-after_script-timeouts${RESET}`,
        ]),
      };
    case 'network':
      return { early: true, exit: 'exit code 1', lines: networkFailure(tool, ctx, rng) };
  }
}

function lintFailure(
  tool: ToolKind,
  ctx: TraceContext,
  rng: Rng,
  w: string,
  line: number,
  col: number,
): string[] {
  const p = ctx.project;
  switch (tool) {
    case 'eslint':
      return [
        '',
        `\x1b[4m/builds/${p.fullPath}/src/${kebab(w)}/index.ts\x1b[24m`,
        `  \x1b[2m${line}:${col}\x1b[22m  \x1b[31merror\x1b[39m  '${w.split('_')[0]}Result' is assigned a value but never used  \x1b[2m@typescript-eslint/no-unused-vars\x1b[22m`,
        `  \x1b[2m${line + 31}:7\x1b[22m  \x1b[31merror\x1b[39m  React Hook useEffect has a missing dependency: 'refetch'. Either include it or remove the dependency array  \x1b[2mreact-hooks/exhaustive-deps\x1b[22m`,
        '',
        '\x1b[31m\x1b[1m✖ 2 problems (2 errors, 0 warnings)\x1b[22m\x1b[39m',
        '',
      ];
    case 'golangci-lint':
      return [
        `internal/${w.replace(/_/g, '')}/${w}.go:${line}:${col}: ineffectual assignment to err (ineffassign)`,
        '\terr = tx.Commit()',
        '\t^',
        `internal/${w.replace(/_/g, '')}/${w}.go:${line + 20}:2: Error return value of \`resp.Body.Close\` is not checked (errcheck)`,
        '\tdefer resp.Body.Close()',
        '\t      ^',
      ];
    case 'clippy':
      return [
        '\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: this `if` has identical blocks\x1b[0m',
        `\x1b[0m   \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m--> \x1b[0m\x1b[0msrc/${w}.rs:${line}:${col}\x1b[0m`,
        '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m= \x1b[0m\x1b[0m\x1b[1mhelp\x1b[0m\x1b[0m: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else\x1b[0m',
        '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m= \x1b[0m\x1b[0m\x1b[1mnote\x1b[0m\x1b[0m: `-D clippy::if-same-then-else` implied by `-D warnings`\x1b[0m',
        '',
        `\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: could not compile \`${p.path}\` (lib) due to 1 previous error\x1b[0m`,
      ];
    case 'ruff':
      return [
        `src/${w}.py:${line}:${col}: F401 [*] \`os\` imported but unused`,
        `src/${w}.py:${line + 9}:5: E711 Comparison to \`None\` should be \`cond is None\``,
        'Found 2 errors.',
        '[*] 1 fixable with the `--fix` option.',
      ];
    case 'mypy':
      return [
        `src/${w}.py:${line}: \x1b[1m\x1b[31merror:\x1b[m Incompatible return value type (got \x1b[1m"str | None"\x1b[m, expected \x1b[1m"str"\x1b[m)  \x1b[33m[return-value]\x1b[m`,
        `\x1b[1m\x1b[31mFound 1 error in 1 file (checked ${rng.int(40, 160)} source files)\x1b[m`,
      ];
    case 'checkstyle':
      return [
        `[ERROR] src/main/java/com/acme/${p.path.split('-')[0]}/${camel(w)}Service.java:[${line},${col}] (sizes) LineLength: Line is longer than 120 characters (found 134). [LineLength]`,
        '[INFO] BUILD FAILURE',
        `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.4.0:check (default-cli) on project ${p.path}: You have 1 Checkstyle violation. -> [Help 1]`,
      ];
    case 'terraform-fmt':
      return [`modules/${kebab(w)}/main.tf`, `modules/${kebab(w)}/variables.tf`];
    case 'helm-lint':
      return [
        '==> Linting charts/api-gateway',
        `[ERROR] templates/deployment.yaml: unable to parse YAML: error converting YAML to JSON: yaml: line ${line}: did not find expected key`,
        '',
        'Error: 1 chart(s) linted, 1 chart(s) failed',
      ];
    default:
      return [`${RED}${tool}: ${w}: ${line}:${col} check failed${RESET}`];
  }
}

function networkFailure(tool: ToolKind, ctx: TraceContext, rng: Rng): string[] {
  if (tool === 'npm-build' || tool === 'jest' || tool === 'npm-audit') {
    return [
      'npm error code ECONNRESET',
      'npm error syscall read',
      'npm error errno ECONNRESET',
      `npm error network request to https://registry.npmjs.org/${rng.pick(['@types%2fnode', 'vite', 'esbuild', '@babel%2fcore'])} failed, reason: read ECONNRESET`,
      'npm error network This is a problem related to network connectivity.',
      'npm error network In most cases you are behind a proxy or have bad network settings.',
      'npm error network',
      'npm error network If you are behind a proxy, please make sure that the',
      "npm error network 'proxy' config is set properly.  See: 'npm help config'",
    ];
  }
  if (tool === 'go-build' || tool === 'go-test') {
    return [
      `go: github.com/prometheus/client_golang@v1.19.1: Get "https://proxy.golang.org/github.com/prometheus/client_golang/@v/v1.19.1.mod": dial tcp: lookup proxy.golang.org on 10.96.0.10:53: read udp 10.244.3.17:51244->10.96.0.10:53: i/o timeout`,
    ];
  }
  if (tool === 'maven-compile' || tool === 'gradle') {
    return [
      `[ERROR] Failed to execute goal on project ${ctx.project.path}: Could not transfer artifact org.postgresql:postgresql:jar:42.7.3 from/to central (https://repo.maven.apache.org/maven2): transfer failed for https://repo.maven.apache.org/maven2/org/postgresql/postgresql/42.7.3/postgresql-42.7.3.jar: Connection reset -> [Help 1]`,
    ];
  }
  if (tool === 'docker-build') {
    return [
      '#3 [internal] load metadata for docker.io/library/python:3.12-slim',
      '#3 ERROR: failed to do request: Head "https://registry-1.docker.io/v2/library/python/manifests/3.12-slim": dial tcp: lookup registry-1.docker.io: Temporary failure in name resolution',
      'ERROR: failed to solve: python:3.12-slim: failed to resolve source metadata for docker.io/library/python:3.12-slim',
    ];
  }
  if (tool === 'link-check' || tool === 'mkdocs') {
    return [
      `✗ [ERR] https://api.acme.example/v2/reference | Network error: error sending request for url (https://api.acme.example/v2/reference): operation timed out`,
      `🔍 ${rng.int(300, 900)} Total ✅ ${rng.int(300, 900)} OK 🚫 1 Error`,
    ];
  }
  return [
    `fatal: unable to access 'https://gitlab.acme.example/acme/platform/shared-config.git/': Could not resolve host: gitlab.acme.example`,
    `curl: (6) Could not resolve host: deploy.acme.internal`,
  ];
}

interface TraceParts {
  head: string[];
  body: string[];
  tail: string[];
}

/** The whole trace a job writes (or will have written when it finishes). */
function traceParts(ctx: TraceContext): TraceParts {
  const { job, project, pipeline } = ctx;
  const rng = rngFor(ctx.seed, 'trace', job.id);
  const tool = job.template.tool;
  const start = Math.floor((job.startedAt ?? job.createdAt) / 1000);
  // Head and body times depend only on the start and the planned run time, so a running job's
  // log is a prefix of its finished log; only the tail uses the real finish time.
  const k = Math.min(1, job.plannedDurationMs / 40_000);
  const t = (offset: number): number => start + Math.floor(offset * k);
  const bodyEnd = t(30);
  const end = Math.max(bodyEnd + 3, Math.floor((job.finishedAt ?? 0) / 1000));
  const image = IMAGES[tool];
  const runnerNo = (hashSeed(ctx.seed, project.id, 'runner') % 6) + 1;
  const macos = tool === 'xcode';
  const executor = macos ? 'instance' : runnerNo % 3 === 0 ? 'kubernetes' : 'docker';
  const token = rngFor(ctx.seed, 'runner', runnerNo).token(8);
  const digest = rngFor(ctx.seed, 'image', image).hex(64);

  const head = [
    `${CLEAR}Running with gitlab-runner 17.2.1 (9882d9c7)${RESET}`,
    `${CLEAR}  on ${macos ? 'saas-macos-medium-m1' : `acme-${executor}-runner-${runnerNo}`} ${token}, system ID: s_${rngFor(ctx.seed, 'sysid', runnerNo).hex(12)}${RESET}`,
    sectionStart(start, 'prepare_executor', `Preparing the "${executor}" executor`),
    `${CLEAR}Using ${executor === 'kubernetes' ? 'Kubernetes' : 'Docker'} executor with image ${image} ...${RESET}`,
    `${CLEAR}Pulling docker image ${image} ...${RESET}`,
    `${CLEAR}Using docker image sha256:${digest} for ${image} with digest ${image.split(':')[0]}@sha256:${digest.split('').reverse().join('')} ...${RESET}`,
    sectionEnd(t(4), 'prepare_executor'),
    sectionStart(t(4), 'prepare_script', 'Preparing environment'),
    `Running on runner-${token.toLowerCase()}-project-${project.id}-concurrent-${rng.int(0, 3)} via acme-${executor}-runner-${runnerNo}...`,
    sectionEnd(t(6), 'prepare_script'),
    sectionStart(t(6), 'get_sources', 'Getting source from Git repository'),
    `${GREEN}Fetching changes with git depth set to 20...${RESET}`,
    `Initialized empty Git repository in /builds/${project.fullPath}/.git/`,
    `${GREEN}Created fresh repository.${RESET}`,
    `${GREEN}Checking out ${pipeline.sha.slice(0, 8)} as detached HEAD (ref is ${pipeline.ref})...${RESET}`,
    '',
    `${GREEN}Skipping Git submodules setup${RESET}`,
    sectionEnd(t(7), 'get_sources'),
    sectionStart(t(7), 'restore_cache', 'Restoring cache'),
    `${GREEN}Checking cache for ${job.stage}-${pipeline.branch.replace(/[^a-z0-9]+/gi, '-')}-protected...${RESET}`,
    rng.chance(0.8)
      ? `${GREEN}Successfully extracted cache${RESET}`
      : `${YELLOW}WARNING: file does not exist${RESET}                       \n${YELLOW}Failed to extract cache${RESET}`,
    sectionEnd(t(8), 'restore_cache'),
    sectionStart(t(8), 'step_script', 'Executing "step_script" stage of the job script'),
    `${CLEAR}Using docker image sha256:${digest} for ${image} with digest ${image.split(':')[0]}@sha256:${digest.split('').reverse().join('')} ...${RESET}`,
  ];

  const failed =
    job.status === 'failed' || (job.status !== 'success' && job.plannedStatus === 'failed');
  const failure =
    failed && job.failure
      ? failureFor(job.failure, tool, ctx, rngFor(ctx.seed, 'failure', job.id))
      : null;
  const body: string[] = [];
  const setup = setupFor(tool, ctx, rng);
  const early = failure !== null && failure.early && setup.length > 0;
  const collapsed = setup.length > 1;
  if (collapsed)
    body.push(
      `${CLEAR}section_start:${t(9)}:install_dependencies[collapsed=true]\r${CLEAR}Installing dependencies`,
    );
  setup.forEach((c, i) => {
    body.push(cmdLine(c.cmd));
    if (early && i === setup.length - 1) body.push(...failure.lines);
    else body.push(...c.out);
  });
  if (collapsed && !early) body.push(`${CLEAR}section_end:${t(30)}:install_dependencies\r${CLEAR}`);
  if (!early) {
    const main = mainFor(tool, ctx, rng);
    body.push(cmdLine(main.cmd));
    const verbose =
      rng.chance(0.05) && ['jest', 'pytest', 'go-test', 'maven-test', 'gradle'].includes(tool);
    if (verbose) body.push(...fillerLines(tool, ctx, rng, rng.int(2_000, 12_000)));
    if (failure) {
      if (failure.exit === 'exit code 137')
        body.push(...main.out.slice(0, Math.ceil(main.out.length / 2)));
      body.push(...failure.lines);
    } else {
      body.push(...main.out);
    }
  }

  const tail: string[] = [];
  if (!failure && job.coverage !== null) {
    tail.push(`Coverage: ${job.coverage.toFixed(2)}% of statements`);
  }
  tail.push(sectionEnd(end - 3, 'step_script'));
  const artifacts =
    job.template.coverage ||
    job.stage === 'build' ||
    ['jest', 'pytest', 'maven-test'].includes(tool);
  if (!failure) {
    tail.push(sectionStart(end - 3, 'archive_cache', 'Saving cache for successful job'));
    tail.push(
      `${GREEN}Creating cache ${job.stage}-${pipeline.branch.replace(/[^a-z0-9]+/gi, '-')}-protected...${RESET}`,
      `${GREEN}Created cache${RESET}`,
    );
    tail.push(sectionEnd(end - 2, 'archive_cache'));
  }
  if (artifacts) {
    const on = failure ? 'on_failure' : 'on_success';
    tail.push(
      sectionStart(
        end - 2,
        `upload_artifacts_${on}`,
        'Uploading artifacts for ' + (failure ? 'failed' : 'successful') + ' job',
      ),
    );
    tail.push(
      `${GREEN}Uploading artifacts...${RESET}`,
      `${job.stage === 'build' ? 'dist/' : 'junit.xml'}: found ${rng.int(1, 400)} matching artifact files and directories${RESET}`,
      `Uploading artifacts as "${job.stage === 'build' ? 'archive' : 'junit'}" to coordinator... 201 Created${RESET}  id=${job.id} responseStatus=201 Created token=glcbt-64`,
    );
    tail.push(sectionEnd(end - 1, `upload_artifacts_${on}`));
  }
  tail.push(
    sectionStart(
      end - 1,
      'cleanup_file_variables',
      'Cleaning up project directory and file based variables',
    ),
  );
  tail.push(sectionEnd(end, 'cleanup_file_variables'));
  if (!failure) tail.push(`${GREEN}Job succeeded${RESET}`);
  else if (failure.exit === 'timeout')
    tail.push(`${RED}ERROR: Job failed: execution took longer than 1h0m0s seconds`, `${RESET}`);
  else tail.push(`${RED}ERROR: Job failed: ${failure.exit}`, `${RESET}`);
  return { head, body, tail };
}

/**
 * The job's log as GitLab serves it at this moment: empty before it starts, growing while it runs
 * (in step with its live progress), complete once finished. Generated on demand from the seed.
 */
export function renderTrace(ctx: TraceContext): string {
  const { job } = ctx;
  if (job.startedAt === null) return '';
  const parts = traceParts(ctx);
  let lines: string[];
  if (job.status === 'running' || job.status === 'canceling') {
    const fraction = Math.min(0.95, (job.stepsDone + 0.5) / Math.max(1, job.steps));
    lines = [...parts.head, ...parts.body.slice(0, Math.floor(parts.body.length * fraction))];
  } else if (job.status === 'canceled') {
    lines = [...parts.head, ...parts.body.slice(0, Math.floor(parts.body.length / 2))];
  } else {
    lines = [...parts.head, ...parts.body, ...parts.tail];
  }
  return lines.join('\n') + '\n';
}
