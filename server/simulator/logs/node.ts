import { defineFamily, type FailureWriters } from './family.ts';
import { PLAIN, YELLOW, camel, kebab, secs, words } from './runner-text.ts';

const ERESOLVE_PEERS = [
  ['react', '18.3.1', '^19.0.0', '@acme/design-system', '5.0.0'],
  ['eslint', '9.6.0', '^8.56.0', 'eslint-plugin-import', '2.29.1'],
  ['typescript', '5.5.3', '>=4.2.0 <5.4', '@typescript-eslint/parser', '6.21.0'],
] as const;

/** Node.js and TypeScript jobs: npm, Jest, ESLint, tsc. */
export const nodeFamily = defineFamily(['npm-build', 'jest', 'npm-audit', 'eslint', 'tsc'], {
  setup(_tool, _ctx, rng) {
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
  },
  main(tool, ctx, rng) {
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
    }
  },
  // Every Node job installs with `npm ci` first, so a dropped registry connection reads the same.
  network(_tool, _ctx, rng) {
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
  },
  outOfMemory(tool, rng) {
    if (tool !== 'jest' && tool !== 'npm-build' && tool !== 'tsc') return undefined;
    return [
      '',
      '<--- Last few GCs --->',
      '',
      `[${rng.int(30, 400)}:0x${rng.hex(8)}]   ${rng.int(40000, 90000)} ms: Mark-Compact 2037.1 (2083.4) -> 2025.9 (2084.9) MB, 1618.23 / 0.00 ms  (average mu = 0.112, current mu = 0.045) allocation failure; scavenge might not succeed`,
      '',
      '<--- JS stacktrace --->',
      '',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    ];
  },
  lint(tool, spot) {
    const { w, line, col } = spot;
    const p = spot.ctx.project;
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
      default:
        return undefined;
    }
  },
});

/** How Node jobs fail, by failure kind. */
export const nodeFailures = {
  'jest-assertion'({ rng, w, line, col }) {
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
  },
  'tsc-error'({ rng, ws, w, line, col }) {
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
  },
  'npm-eresolve'({ ctx, rng }) {
    const p = ctx.project;
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
  },
} satisfies FailureWriters;
