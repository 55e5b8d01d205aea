import type { SimProject } from '../model.ts';
import { defineFamily, type FailureWriters } from './family.ts';
import { camel, kebab, secs, words } from './runner-text.ts';

function goModule(project: SimProject): string {
  return `gitlab.acme.example/${project.fullPath}`;
}

/** Go jobs: go build, go test, golangci-lint. */
export const goFamily = defineFamily(['go-build', 'go-test', 'golangci-lint'], {
  setup() {
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
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    const ws = words(p);
    switch (tool) {
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
    }
  },
  network(tool) {
    // golangci-lint loads the packages, so it downloads the modules first like a build does.
    if (tool === 'go-build' || tool === 'go-test' || tool === 'golangci-lint') {
      return [
        `go: github.com/prometheus/client_golang@v1.19.1: Get "https://proxy.golang.org/github.com/prometheus/client_golang/@v/v1.19.1.mod": dial tcp: lookup proxy.golang.org on 10.96.0.10:53: read udp 10.244.3.17:51244->10.96.0.10:53: i/o timeout`,
      ];
    }
    return undefined;
  },
  fillerLine(tool, { ts, w }, rng) {
    if (tool !== 'go-test') return undefined;
    return `    ${w}_test.go:${rng.int(20, 300)}: ${ts} level=debug msg="handled request" path=/v1/${kebab(w)} status=200 dur=${rng.int(1, 80)}ms`;
  },
  lint(tool, spot) {
    const { w, line, col } = spot;
    switch (tool) {
      case 'golangci-lint':
        return [
          `internal/${w.replace(/_/g, '')}/${w}.go:${line}:${col}: ineffectual assignment to err (ineffassign)`,
          '\terr = tx.Commit()',
          '\t^',
          `internal/${w.replace(/_/g, '')}/${w}.go:${line + 20}:2: Error return value of \`resp.Body.Close\` is not checked (errcheck)`,
          '\tdefer resp.Body.Close()',
          '\t      ^',
        ];
      default:
        return undefined;
    }
  },
});

/** How Go jobs fail, by failure kind. */
export const goFailures = {
  'go-test'({ rng, w, line, ctx }) {
    const p = ctx.project;
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
  },
  'go-compile'({ w, line, col, ctx }) {
    const p = ctx.project;
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
  },
} satisfies FailureWriters;
