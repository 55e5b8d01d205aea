// Lint config: typescript-eslint's recommended rules, a guard that keeps Electron out of server/ and
// cli/, and the layering of the tree as a local plugin: every source file sits in a zone that says
// which folders it may import (a file no zone covers is an error), and no import cycle.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** A path relative to the repository root, with forward slashes. */
const repoPath = (absolute) => path.relative(root, absolute).split(path.sep).join('/');

/** Tests, their fixtures and benches: what production code may never import. */
const isTestCode = (target) =>
  /(^|\/)testing\//.test(target) || /\.(test|spec|bench)\.[cm]?[jt]sx?$/.test(target);

/** The module an import, export-from, `import()` or `import('…')` type names, else undefined. */
function moduleReferences(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
      return node.source.value;
    case 'ExportNamedDeclaration':
      return node.source?.value;
    case 'ImportExpression':
      return node.source.type === 'Literal' ? node.source.value : undefined;
    case 'TSImportType':
      return node.argument.type === 'TSLiteralType' ? node.argument.literal.value : undefined;
    default:
      return undefined;
  }
}

/** The file a relative specifier names (imports carry their extension), else undefined. */
function resolveRelative(from, specifier) {
  if (typeof specifier !== 'string' || !specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  return target.split(path.sep).includes('node_modules') ? undefined : target;
}

/**
 * The module graph on disk, one entry a file, re-read when the file's mtime or size changes (an
 * editor's ESLint server lives for hours). TypeScript's import scanner reads each file once: it
 * skips comments and strings (the lint-config test's sample code), sees `import type`,
 * `export type * from`, dynamic `import()` and `import('…').T` type references, and costs a third
 * of a full parse (about 0.3 s for the whole tree).
 */
const diskGraph = new Map();
/** How long a file's entry is trusted without a stat: one lint run visits each file many times. */
const RECHECK_MS = 1000;

/** The files `file` imports on disk (relative imports only). */
function importsOnDisk(file) {
  const now = Date.now();
  const fresh = diskGraph.get(file);
  if (fresh && now - fresh.checkedAt < RECHECK_MS) return fresh.imports;
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const known = diskGraph.get(file);
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) {
    known.checkedAt = now;
    return known.imports;
  }
  const text = fs.readFileSync(file, 'utf8');
  const imports = [
    ...new Set(
      ts
        .preProcessFile(text, true, true)
        .importedFiles.map((ref) => resolveRelative(file, ref.fileName))
        .filter(Boolean),
    ),
  ];
  diskGraph.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, checkedAt: now, imports });
  return imports;
}

/**
 * The shortest import path from `start` back to `file` through the graph on disk (both ends
 * included), or undefined when `start` cannot reach `file`. Breadth-first, so the report names the
 * tightest loop.
 */
function pathBack(start, file) {
  if (start === file) return [file];
  const parent = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    for (const next of importsOnDisk(current)) {
      if (parent.has(next)) continue;
      parent.set(next, current);
      if (next === file) {
        const trail = [];
        for (let at = next; at !== null; at = parent.get(at)) trail.unshift(at);
        return trail;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * `layers/imports`: resolves each relative import to a repo-relative path and checks it against the
 * importing file's zone. Options: `allow` (path prefixes the zone may import; anything else is an
 * error), `deny` (prefixes it may not import even inside `allow`), `typesOnly` (prefixes it may
 * import with `import type` only), `testCode` (true where testing/ folders and *.test files may be
 * imported; production code never may), `packages` (false where not even npm packages and node:
 * built-ins may be imported) and `layer` + `allowed` (the words of the message, naming what is
 * allowed). Package and node: imports are otherwise allowed; the renderer's tsconfig keeps Node
 * out. Written like VS Code's `code-import-patterns`, which refuses by default: a file whose zone
 * gives no options (no zone block covers it) is itself an error, and the error says what is
 * allowed, not only what is not.
 */
const importsRule = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: {
          layer: { type: 'string' },
          allowed: { type: 'string' },
          allow: { type: 'array', items: { type: 'string' } },
          deny: { type: 'array', items: { type: 'string' } },
          typesOnly: { type: 'array', items: { type: 'string' } },
          testCode: { type: 'boolean' },
          packages: { type: 'boolean' },
        },
        required: ['layer', 'allowed'],
        additionalProperties: false,
      },
    ],
    messages: {
      uncovered:
        'No layering zone covers {{file}}: add its folder to a zone in eslint.config.js that says what it may import.',
      forbidden: '{{layer}} may not import {{target}}. Allowed: {{allowed}}.',
      typesOnly:
        '{{layer}} may import only types from {{target}} (use `import type`). Allowed: {{allowed}}.',
      testCode:
        '{{layer}} may not import test code ({{target}}): testing/ folders and *.test files are for tests. Allowed: {{allowed}}.',
    },
  },
  create(context) {
    if (context.options.length === 0) {
      return {
        Program(node) {
          const file = repoPath(context.filename);
          context.report({
            node,
            loc: { line: 1, column: 0 },
            messageId: 'uncovered',
            data: { file },
          });
        },
      };
    }
    const {
      layer,
      allowed,
      allow,
      deny = [],
      typesOnly = [],
      testCode = false,
      packages = true,
    } = context.options[0];
    const under = (target, prefixes) =>
      prefixes.some((p) => target === p || target.startsWith(p.endsWith('/') ? p : `${p}/`));

    function check(node, typeOnly) {
      const specifier = moduleReferences(node);
      if (typeof specifier !== 'string') return;
      if (!packages && !specifier.startsWith('.')) {
        context.report({
          node,
          messageId: 'forbidden',
          data: { layer, target: specifier, allowed },
        });
        return;
      }
      const absolute = resolveRelative(context.filename, specifier);
      if (absolute === undefined) return;
      const target = repoPath(absolute);
      const data = { layer, target, allowed };
      if (!testCode && isTestCode(target)) {
        context.report({ node, messageId: 'testCode', data });
        return;
      }
      if (under(target, typesOnly)) {
        if (!typeOnly) context.report({ node, messageId: 'typesOnly', data });
        return;
      }
      const denied = under(target, deny) || (allow !== undefined && !under(target, allow));
      if (denied) context.report({ node, messageId: 'forbidden', data });
    }

    const everySpecifierIsType = (node) =>
      node.specifiers.length > 0 &&
      node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');

    return {
      ImportDeclaration(node) {
        check(node, node.importKind === 'type' || everySpecifierIsType(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.exportKind === 'type' || everySpecifierIsType(node));
      },
      ExportAllDeclaration(node) {
        check(node, node.exportKind === 'type');
      },
      ImportExpression(node) {
        check(node, false);
      },
      TSImportType(node) {
        check(node, true);
      },
    };
  },
};

/**
 * `layers/no-cycle`: reports an import that starts a cycle back to the file being linted, with the
 * cycle's path. The file's own imports come from its syntax tree (so an editor sees unsaved
 * edits); every other file's from the graph on disk, read once and re-read when a file changes. Type-only imports
 * count: a cycle of them does not fail at run time, but the modules still cannot be understood,
 * moved or tested apart, which is what the layering is for.
 */
const noCycleRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      cycle:
        'Import cycle: {{cycle}}. Move what both sides need into a module that imports neither (a leaf).',
    },
  },
  create(context) {
    const file = context.filename;
    if (!path.isAbsolute(file)) return {};
    const references = [];
    const collect = (node) => {
      const target = resolveRelative(file, moduleReferences(node));
      if (target !== undefined) references.push({ node, target });
    };
    return {
      ImportDeclaration: collect,
      ExportNamedDeclaration: collect,
      ExportAllDeclaration: collect,
      ImportExpression: collect,
      TSImportType: collect,
      'Program:exit'() {
        const tried = new Set();
        for (const { node, target } of references) {
          if (tried.has(target)) continue;
          tried.add(target);
          const back = pathBack(target, file);
          if (back === undefined) continue;
          const cycle = [file, ...back].map(repoPath).join(' → ');
          context.report({ node, messageId: 'cycle', data: { cycle } });
          return;
        }
      },
    };
  },
};

const layersPlugin = { rules: { imports: importsRule, 'no-cycle': noCycleRule } };

/**
 * One layering zone: the files it covers and what they may import (`layers/imports` options). A
 * later zone overrides an earlier one for the files both cover.
 */
const zone = (files, options) => ({ files, rules: { 'layers/imports': ['error', options] } });

/** The wire contract: what the service serves, the one server code the dashboard sees (types). */
const CONTRACT = [
  'server/contract.ts',
  'server/pagination.ts',
  'server/group-health/contract.ts',
  'server/test-reports/contract.ts',
  'server/triage/contract.ts',
];
/** The same, in a message. */
const CONTRACT_WORDS = 'the wire contract (server/contract.ts and its leaves)';

/** The service and the CLI run in plain Node: Electron stays in main/. */
const noElectron = ['error', { paths: ['electron'] }];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'release', 'coverage', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { layers: layersPlugin },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // No options: a file that no zone below covers is reported (refuse by default).
      'layers/imports': 'error',
      'layers/no-cycle': 'error',
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['server/**', 'cli/**'],
    rules: { 'no-restricted-imports': noElectron },
  },

  // ── The service (server/), bottom to top: each zone imports only zones listed before it, except
  // the wire contract, a leaf listed last so that it overrides server/group-health/** for its file. ──
  // Clock, sleep, errors, logger, paths and the secret-store port sit below everything else.
  zone(['server/platform/**'], {
    layer: 'The low-level modules (server/platform/)',
    allowed: 'other server/platform/** files, node: built-ins, npm packages',
    allow: ['server/platform'],
  }),
  // The GitLab client speaks GitLab's wire format; the domain folders build on it, never the reverse.
  zone(['server/gitlab/**'], {
    layer: 'The GitLab client (server/gitlab/)',
    allowed: `server/gitlab/**, server/platform/**, ${CONTRACT_WORDS}, npm packages (not summary, ai, simulator)`,
    allow: ['server/gitlab', 'server/platform', ...CONTRACT],
  }),
  // GitLab's wire types and its list of pipeline statuses: a leaf, so whoever speaks GitLab's format
  // (the client, the domains, the simulator) shares one vocabulary without reaching the client.
  zone(['server/gitlab/wire.ts'], {
    layer: "GitLab's wire vocabulary (server/gitlab/wire.ts)",
    allowed: 'nothing: it is a leaf',
    allow: [],
    packages: false,
  }),
  // A fake GitLab: it answers in GitLab's wire types and knows nothing of what the service does.
  // Only the GitLab-source choice (server/gitlab-source.ts), tests and benches import it.
  zone(['server/simulator/**'], {
    layer: 'The GitLab simulator (server/simulator/)',
    allowed:
      "server/simulator/**, server/platform/**, GitLab's wire vocabulary (server/gitlab/wire.ts), npm packages",
    allow: ['server/simulator', 'server/platform', 'server/gitlab/wire.ts'],
  }),
  zone(['server/http/**'], {
    layer: 'The HTTP plumbing (server/http/)',
    allowed: `server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/http', 'server/platform', ...CONTRACT],
  }),
  zone(['server/events/**'], {
    layer: 'The live-event hub (server/events/)',
    allowed: `server/events/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/events', 'server/platform', ...CONTRACT],
  }),
  zone(['server/summary/**'], {
    layer: 'The pipeline summary and its poller (server/summary/)',
    allowed: `server/summary/**, server/gitlab/**, server/events/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/summary',
      'server/gitlab',
      'server/events',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  // The history database also holds the test reports' tables: their migration is an import-free leaf.
  zone(['server/history/**'], {
    layer: 'The pipeline history store (server/history/)',
    allowed: `server/history/**, server/summary/**, server/gitlab/**, server/platform/**, server/test-reports/migration.ts, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/history',
      'server/summary',
      'server/gitlab',
      'server/platform',
      'server/test-reports/migration.ts',
      ...CONTRACT,
    ],
  }),
  // Test-level history from GitLab's JUnit reports, stored in the history database.
  zone(['server/test-reports/**'], {
    layer: 'The test reports (server/test-reports/)',
    allowed: `server/test-reports/**, server/history/**, server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/test-reports',
      'server/history',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  zone(['server/group-health/**'], {
    layer: 'Group health (server/group-health/)',
    allowed: `server/group-health/**, server/test-reports/**, server/history/**, server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/group-health',
      'server/test-reports',
      'server/history',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  zone(['server/settings/**'], {
    layer: 'The settings (server/settings/)',
    allowed: `server/settings/**, server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/settings',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  zone(['server/notifications/**'], {
    layer: 'The failure notifications (server/notifications/)',
    allowed: `server/notifications/**, server/settings/**, server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/notifications',
      'server/settings',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  zone(['server/groups/**'], {
    layer: 'The group lookup (server/groups/)',
    allowed: `server/groups/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/groups', 'server/gitlab', 'server/http', 'server/platform', ...CONTRACT],
  }),
  zone(['server/avatar/**'], {
    layer: 'The avatar proxy (server/avatar/)',
    allowed: `server/avatar/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/avatar', 'server/gitlab', 'server/http', 'server/platform', ...CONTRACT],
  }),
  // The AI analysis owns its provider port (server/ai/providers/): only the AI use cases and the
  // composition root may import it, so no other folder depends on which model answers.
  zone(['server/ai/**'], {
    layer: 'The AI analysis (server/ai/)',
    allowed: `server/ai/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/ai', 'server/gitlab', 'server/http', 'server/platform', ...CONTRACT],
  }),
  // The job routes distill logs with the AI folder's distiller, never through a provider.
  zone(['server/jobs/**'], {
    layer: 'The job routes (server/jobs/)',
    allowed: `server/jobs/**, server/ai/** except the provider port (server/ai/providers/), server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/jobs',
      'server/ai',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
    deny: ['server/ai/providers'],
  }),
  // Triage reads the history, group health's flakes and the AI's distiller and offline diagnosis
  // (never its provider port); the summary, the notifications and the AI are handed its answers
  // as functions by the composition root.
  zone(['server/triage/**'], {
    layer: 'Triage (server/triage/)',
    allowed: `server/triage/**, server/group-health/**, server/history/**, server/ai/** except the provider port (server/ai/providers/), server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/triage',
      'server/group-health',
      'server/history',
      'server/ai',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
    deny: ['server/ai/providers'],
  }),
  // The cctray feed reads group health's view of the history; nothing reads the feed back.
  zone(['server/feeds/**'], {
    layer: 'The cctray feed (server/feeds/)',
    allowed: `server/feeds/**, server/group-health/**, server/history/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'server/feeds',
      'server/group-health',
      'server/history',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  // The metrics read the live state through injected functions and are told events through
  // hooks; only the composition root wires them, and no domain imports prom-client or this folder.
  zone(['server/metrics/**'], {
    layer: 'The Prometheus metrics (server/metrics/)',
    allowed: `server/metrics/**, server/group-health/**, server/history/**, server/summary/**, server/gitlab/**, server/http/**, server/platform/**, ${CONTRACT_WORDS}, npm packages (not ai, events, simulator)`,
    allow: [
      'server/metrics',
      'server/group-health',
      'server/history',
      'server/summary',
      'server/gitlab',
      'server/http',
      'server/platform',
      ...CONTRACT,
    ],
  }),
  zone(['server/compose.ts'], {
    layer: 'The composition root (server/compose.ts)',
    allowed:
      'any server/** module except the simulator (server/gitlab-source.ts chooses it), npm packages',
    allow: ['server'],
    deny: ['server/simulator'],
  }),
  zone(['server/gitlab-source.ts'], {
    layer: 'The GitLab-source choice (server/gitlab-source.ts)',
    allowed:
      'server/gitlab/**, server/simulator/** (the demo GitLab), server/platform/**, server/config.ts, npm packages',
    allow: ['server/gitlab', 'server/simulator', 'server/platform', 'server/config.ts'],
  }),
  zone(['server/config.ts', 'server/version.ts'], {
    layer: 'The service configuration (server/config.ts, server/version.ts)',
    allowed: `server/platform/**, server/http/**, server/settings/**, server/summary/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['server/platform', 'server/http', 'server/settings', 'server/summary', ...CONTRACT],
  }),
  // The dashboard type-checks the contract in the browser project, so it imports only its own files.
  zone(CONTRACT, {
    layer: 'The wire contract (server/contract.ts and its leaves)',
    allowed:
      'types from the other contract files (server/pagination.ts, server/group-health/contract.ts, server/triage/contract.ts)',
    allow: [],
    typesOnly: CONTRACT,
  }),

  // ── The CLI (cli/): commands on top of the token engine, the terminal summary and the service. ──
  zone(['cli/*.{js,ts}'], {
    layer: 'The CLI entry points (cli/*.ts)',
    allowed: 'cli/**, server/platform/**, server/version.ts, npm packages',
    allow: ['cli', 'server/platform', 'server/version.ts'],
  }),
  zone(['cli/commands/**'], {
    layer: 'The CLI commands (cli/commands/)',
    allowed: 'cli/**, server/** except the simulator and the AI provider port, npm packages',
    allow: ['cli', 'server'],
    deny: ['server/simulator', 'server/ai/providers'],
  }),
  // The OAuth engine stands alone: the tray and the commands use it, it uses only the platform.
  zone(['cli/oauth/**'], {
    layer: 'The token engine (cli/oauth/)',
    allowed:
      'cli/oauth/**, server/platform/**, renderer/lib/format.ts (the product words for durations), npm packages',
    allow: ['cli/oauth', 'server/platform', 'renderer/lib/format.ts'],
  }),
  // The running service as the CLI's tools call it over HTTP: no service module, only its words.
  zone(['cli/service/**'], {
    layer: 'The service client (cli/service/)',
    allowed: `cli/service/**, cli/errors.ts, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: ['cli/service', 'cli/errors.ts', 'server/platform', ...CONTRACT],
  }),
  // explain reads a job from the service or from GitLab with the AI use cases in-process; like
  // every caller outside server/ai it never touches the provider port.
  zone(['cli/explain/**'], {
    layer: 'The job explainer (cli/explain/)',
    allowed: `cli/explain/**, cli/service/**, cli/errors.ts, server/ai/** except the provider port, server/gitlab/**, server/jobs/job-response.ts, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'cli/explain',
      'cli/service',
      'cli/errors.ts',
      'server/ai',
      'server/gitlab',
      'server/jobs/job-response.ts',
      'server/platform',
      ...CONTRACT,
    ],
    deny: ['server/ai/providers'],
  }),
  // The MCP server talks to the running service only; it distils logs with the AI distiller.
  zone(['cli/mcp/**'], {
    layer: 'The MCP server (cli/mcp/)',
    allowed: `cli/mcp/**, cli/service/**, cli/explain/** except its GitLab source, server/ai/distill/**, server/platform/**, ${CONTRACT_WORDS}, npm packages`,
    allow: [
      'cli/mcp',
      'cli/service',
      'cli/explain',
      'server/ai/distill',
      'server/platform',
      ...CONTRACT,
    ],
    deny: ['cli/explain/gitlab-source.ts'],
  }),
  // The doctor checks the engine's files and edges; it knows nothing of the service but the
  // GitLab token's account name (server/platform).
  zone(['cli/doctor/**'], {
    layer: 'The doctor (cli/doctor/)',
    allowed: 'cli/doctor/**, cli/oauth/**, server/platform/**, npm packages',
    allow: ['cli/doctor', 'cli/oauth', 'server/platform'],
  }),
  zone(['cli/summary/**'], {
    layer: 'The terminal summary (cli/summary/)',
    allowed: `cli/summary/**, ${CONTRACT_WORDS}, renderer/lib/format.ts (the dashboard's words for the same numbers), npm packages`,
    allow: ['cli/summary', 'renderer/lib/format.ts', ...CONTRACT],
  }),

  // ── The desktop shell (main/): starts the service through the server's composition. ──
  zone(['main/**'], {
    layer: 'The desktop shell (main/)',
    allowed:
      'main/**, server/** except the simulator and the AI provider port, cli/** except cli/commands, assets/**, npm packages',
    allow: ['main', 'server', 'cli', 'assets'],
    deny: ['cli/commands', 'server/simulator', 'server/ai/providers'],
  }),
  // The dashboard imports the preload's API type from here and type-checks it in the browser
  // project, whose tsconfig would still resolve Node's types: so this file imports nothing at all.
  zone(['main/ipc-contract.ts'], {
    layer: 'The IPC contract (main/ipc-contract.ts)',
    allowed: 'nothing, not even a package (the dashboard type-checks it in the browser)',
    allow: [],
    packages: false,
  }),

  // ── The dashboard (renderer/): runs in a browser and gets values from the service over HTTP,
  // never by importing server code; types come from the wire contract and the IPC contract. ──
  zone(['renderer/**'], {
    layer: 'The dashboard (renderer/)',
    allowed:
      'renderer/**, assets/**, types from server/contract.ts and main/ipc-contract.ts, npm packages',
    allow: ['renderer', 'assets'],
    typesOnly: ['server/contract.ts', 'main/ipc-contract.ts'],
  }),

  // ── Tools around the product. ──
  zone(['scripts/**'], {
    layer: 'The build and packaging scripts (scripts/)',
    allowed: 'scripts/**, main/tray-icons.ts (the tray icons a package must hold), npm packages',
    allow: ['scripts', 'main/tray-icons.ts'],
  }),
  zone(['*.{js,mjs,cjs,ts,mts}'], {
    layer: 'The root config files',
    allowed: 'e2e/service.ts (Playwright finds the browser through it), npm packages',
    allow: ['e2e/service.ts'],
  }),
  // Benchmarks measure the real modules with the tests' fakes, so they reach across the service.
  zone(['bench/**'], {
    layer: 'The benchmarks (bench/)',
    allowed: 'bench/**, server/**, cli/**, e2e/service.ts, testing/ fixtures, npm packages',
    allow: ['bench', 'server', 'cli', 'e2e/service.ts'],
    testCode: true,
  }),
  // End-to-end tests drive the built app through the browser and HTTP: no service internals.
  zone(['e2e/**'], {
    layer: 'The end-to-end tests (e2e/)',
    allowed:
      'e2e/**, server/simulator/** (the demo GitLab), types from server/contract.ts, npm packages',
    allow: ['e2e', 'server/simulator'],
    typesOnly: ['server/contract.ts'],
    testCode: true,
  }),

  // ── Tests and their fixtures: a broader zone on purpose. A unit or integration test drives real
  // modules with fakes from any folder (the dashboard's tests build data with server functions so
  // the oracle can't drift), so it may import any module of the repo; production code may not
  // import them back (the `testCode` check above). Last, so it overrides the folder zones. ──
  zone(['**/*.test.{ts,tsx}', '**/testing/**'], {
    layer: 'Tests and fixtures (*.test.ts, testing/)',
    allowed: 'any module of the repo, npm packages',
    testCode: true,
  }),
);
