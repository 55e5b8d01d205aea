// Lint config: typescript-eslint's recommended rules, a guard that keeps Electron out of server/ and
// cli/, and the layering of the tree (which folder may import which) as a local rule.
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * `layers/imports`: resolves each relative import to a repo-relative path and checks it against the
 * importing layer's zone. Options: `allow` (path prefixes the layer may import; anything else is an
 * error), `deny` (path prefixes it may not import), `typesOnly` (prefixes it may import with
 * `import type` only) and `layer` + `allowed` (the words of the message, naming the allowed layers).
 * Package and node: imports are always allowed; the renderer's tsconfig already keeps Node out.
 * Written like VS Code's `code-import-patterns`: the error says what is allowed, not only what is not.
 */
const layersPlugin = {
  rules: {
    imports: {
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
            },
            required: ['layer', 'allowed'],
            additionalProperties: false,
          },
        ],
        messages: {
          forbidden: '{{layer}} may not import {{target}}. Allowed: {{allowed}}.',
          typesOnly:
            '{{layer}} may import only types from {{target}} (use `import type`). Allowed: {{allowed}}.',
        },
      },
      create(context) {
        const { layer, allowed, allow, deny = [], typesOnly = [] } = context.options[0];
        const under = (target, prefixes) =>
          prefixes.some((p) => target === p || target.startsWith(p.endsWith('/') ? p : `${p}/`));

        function check(node, source, typeOnly) {
          if (typeof source !== 'string' || !source.startsWith('.')) return;
          const absolute = path.resolve(path.dirname(context.filename), source);
          const target = path.relative(root, absolute).split(path.sep).join('/');
          const data = { layer, target, allowed };
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
            check(
              node,
              node.source.value,
              node.importKind === 'type' || everySpecifierIsType(node),
            );
          },
          ExportNamedDeclaration(node) {
            if (node.source)
              check(
                node,
                node.source.value,
                node.exportKind === 'type' || everySpecifierIsType(node),
              );
          },
          ExportAllDeclaration(node) {
            check(node, node.source.value, node.exportKind === 'type');
          },
          ImportExpression(node) {
            if (node.source.type === 'Literal') check(node, node.source.value, false);
          },
        };
      },
    },
  },
};

/** Every layer rule keeps Electron out of server/ and cli/ too, since a later block replaces it. */
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
  // The dashboard runs in a browser: it gets values from the service over HTTP, never by importing
  // server code. Its tests and fixtures may build data with server functions so the oracle can't drift.
  {
    files: ['renderer/**'],
    ignores: ['renderer/**/*.test.{ts,tsx}', 'renderer/testing/**'],
    rules: {
      'layers/imports': [
        'error',
        {
          layer: 'The dashboard (renderer/)',
          allowed: 'renderer/**, assets/**, types from server/contract.ts, npm packages',
          allow: ['renderer', 'assets'],
          typesOnly: ['server/contract.ts'],
        },
      ],
    },
  },
  // The desktop shell starts the service through the server's composition, not a CLI command.
  {
    files: ['main/**'],
    rules: {
      'layers/imports': [
        'error',
        {
          layer: 'The desktop shell (main/)',
          allowed: 'main/**, server/**, cli/** except cli/commands, assets/**, npm packages',
          deny: ['cli/commands'],
        },
      ],
    },
  },
  // The GitLab client speaks GitLab's wire format; the domain folders build on it, never the reverse.
  {
    files: ['server/gitlab/**'],
    rules: {
      'no-restricted-imports': noElectron,
      'layers/imports': [
        'error',
        {
          layer: 'The GitLab client (server/gitlab/)',
          allowed:
            'server/gitlab/**, server/platform/**, server/contract.ts, npm packages (not summary, ai, simulator)',
          deny: ['server/summary', 'server/ai', 'server/simulator'],
        },
      ],
    },
  },
  // Clock, sleep, errors, logger, paths and the secret-store port sit below everything else.
  {
    files: ['server/platform/**'],
    rules: {
      'no-restricted-imports': noElectron,
      'layers/imports': [
        'error',
        {
          layer: 'The low-level modules (server/platform/)',
          allowed: 'other server/platform/** files, node: built-ins, npm packages',
          allow: ['server/platform'],
        },
      ],
    },
  },
);
