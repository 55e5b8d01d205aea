import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The layering rules of eslint.config.js, run through ESLint's Node API on virtual files
// (https://eslint.org/docs/latest/integrate/nodejs-api#-eslintlinttextcode-options): each rule must
// fire on a deliberate violation and stay quiet on the imports its layer is allowed.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The layer-rule messages ESLint reports for `code` as if it were the file at `file`. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages
    .filter((m) => m.ruleId === 'layers/imports' || m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

/** A module that imports `specifier` (as a type with `type`) and uses what it imported. */
const importing = (specifier: string, type = false) =>
  type
    ? `import type { Imported } from '${specifier}';\nexport type Used = Imported;\n`
    : `import { imported } from '${specifier}';\nexport const used = imported;\n`;

describe('layering rules in eslint.config.js', () => {
  it('lets the dashboard import only types from server/contract.ts', async () => {
    const file = 'renderer/views/example/example-view.tsx';
    expect(
      await layerErrors(
        file,
        "import { useState } from 'react';\n" +
          "import type { SummaryResponse } from '../../../server/contract.ts';\n" +
          "import { formatDuration } from '../../lib/format.ts';\n" +
          'export const x = [useState, formatDuration] as unknown as SummaryResponse;\n',
      ),
    ).toEqual([]);

    const value = await layerErrors(
      file,
      "import { ACTIVE_STATUSES } from '../../../server/contract.ts';\nexport const x = ACTIVE_STATUSES;\n",
    );
    expect(value).toHaveLength(1);
    expect(value[0]).toMatch(/only types from server\/contract\.ts.*Allowed: renderer\/\*\*/);

    const server = await layerErrors(
      file,
      "import type { Poller } from '../../../server/summary/poller.ts';\nexport type X = Poller;\n",
    );
    expect(server).toEqual([
      expect.stringMatching(/may not import server\/summary\/poller\.ts\. Allowed: renderer/),
    ]);
  });

  it('lets dashboard tests and fixtures build data with server code', async () => {
    const code =
      "import { summarise } from '../../../server/summary/summarise.ts';\nexport const s = summarise;\n";
    expect(await layerErrors('renderer/views/example/example.test.tsx', code)).toEqual([]);
    expect(await layerErrors('renderer/testing/example/fixtures.ts', code)).toEqual([]);
  });

  it('keeps cli/commands out of the desktop shell', async () => {
    const file = 'main/example.ts';
    expect(
      await layerErrors(
        file,
        "import { resolveServeConfig } from '../cli/commands/serve.ts';\nexport const r = resolveServeConfig;\n",
      ),
    ).toEqual([
      expect.stringMatching(/main\/\) may not import cli\/commands\/serve\.ts\. Allowed: main/),
    ]);
    expect(
      await layerErrors(
        file,
        "import { startService } from '../server/start.ts';\nimport { app } from 'electron';\nexport const r = [startService, app];\n",
      ),
    ).toEqual([]);
  });

  it('keeps summary, ai and simulator out of the GitLab client', async () => {
    const file = 'server/gitlab/example.ts';
    for (const target of ['../summary/model.ts', '../ai/index.ts', '../simulator/index.ts']) {
      const errors = await layerErrors(
        file,
        `import type { X } from '${target}';\nexport type Y = X;\n`,
      );
      expect(errors, target).toEqual([
        expect.stringMatching(/GitLab client \(server\/gitlab\/\) may not import .*Allowed:/),
      ]);
    }
    expect(
      await layerErrors(
        file,
        "import { AppError } from '../platform/errors.ts';\nimport type { GitLabJob } from './wire.ts';\n" +
          "import type { JobDetails } from '../contract.ts';\nexport const e = [AppError] as unknown as [GitLabJob, JobDetails];\n",
      ),
    ).toEqual([]);
  });

  it('keeps the low-level modules below everything else', async () => {
    const file = 'server/platform/example.ts';
    expect(
      await layerErrors(
        file,
        "import { GitLabClient } from '../gitlab/client.ts';\nexport const c = GitLabClient;\n",
      ),
    ).toEqual([
      expect.stringMatching(
        /server\/platform\/\) may not import server\/gitlab\/client\.ts\. Allowed: other server\/platform/,
      ),
    ]);
    expect(
      await layerErrors(
        file,
        "import os from 'node:os';\nimport pino from 'pino';\nimport { systemClock } from './clock.ts';\nexport const x = [os, pino, systemClock];\n",
      ),
    ).toEqual([]);
    // Dynamic imports and re-exports count as imports too.
    expect(await layerErrors(file, "export * from '../summary/model.ts';\n")).toHaveLength(1);
    expect(
      await layerErrors(file, "export const load = () => import('../cli/oauth/engine.ts');\n"),
    ).toHaveLength(1);
  });

  it('still keeps Electron out of server code where a layer rule applies', async () => {
    expect(
      await layerErrors(
        'server/platform/example.ts',
        "import { app } from 'electron';\nexport const a = app;\n",
      ),
    ).toEqual([expect.stringContaining("'electron' import is restricted")]);
  });
});

/** One zone's case: a file in it, imports it may make, and imports it may not (with the message). */
interface ZoneCase {
  file: string;
  allowed: { from: string; type?: boolean }[];
  refused: { from: string; type?: boolean; message: RegExp }[];
}

// One row per zone added when every folder got one (platform, gitlab and the renderer are above).
const ZONES: Record<string, ZoneCase> = {
  'server/simulator': {
    file: 'server/simulator/example.ts',
    allowed: [
      { from: '../gitlab/wire.ts', type: true },
      { from: '../gitlab/wire.ts' },
      { from: '../platform/clock.ts' },
    ],
    refused: [
      {
        from: '../summary/summarise.ts',
        message:
          /GitLab simulator \(server\/simulator\/\) may not import server\/summary\/summarise\.ts\. Allowed: server\/simulator\/\*\*/,
      },
      { from: '../gitlab/client.ts', message: /may not import server\/gitlab\/client\.ts/ },
      {
        from: '../gitlab/wire-schemas.ts',
        message: /may not import server\/gitlab\/wire-schemas\.ts/,
      },
    ],
  },
  'server/gitlab/wire.ts': {
    file: 'server/gitlab/wire.ts',
    allowed: [],
    refused: [
      {
        from: '../platform/clock.ts',
        message: /wire vocabulary \(server\/gitlab\/wire\.ts\) may not import server\/platform/,
      },
      { from: './client.ts', type: true, message: /may not import server\/gitlab\/client\.ts/ },
      { from: 'zod', message: /may not import zod\. Allowed: nothing/ },
    ],
  },
  'server/summary': {
    file: 'server/summary/example.ts',
    allowed: [
      { from: '../gitlab/client.ts' },
      { from: '../events/sse-hub.ts' },
      { from: '../contract.ts' },
    ],
    refused: [
      {
        from: '../simulator/index.ts',
        message: /summary and its poller \(server\/summary\/\) may not import server\/simulator/,
      },
      { from: '../ai/index.ts', message: /may not import server\/ai\/index\.ts\. Allowed:/ },
      { from: '../group-health/group-health.ts', message: /may not import server\/group-health/ },
    ],
  },
  'server/ai': {
    file: 'server/ai/example.ts',
    allowed: [
      { from: './providers/provider.ts' },
      { from: '../gitlab/wire.ts', type: true },
      { from: '../http/app.ts' },
    ],
    refused: [
      {
        from: '../summary/poller.ts',
        message: /AI analysis \(server\/ai\/\) may not import server\/summary\/poller\.ts/,
      },
      { from: '../simulator/index.ts', message: /may not import server\/simulator/ },
    ],
  },
  'server/jobs': {
    file: 'server/jobs/example.ts',
    allowed: [{ from: '../ai/distill/log-distiller.ts' }, { from: '../summary/model.ts' }],
    refused: [
      {
        from: '../ai/providers/provider.ts',
        message:
          /job routes \(server\/jobs\/\) may not import server\/ai\/providers\/provider\.ts\. Allowed: .*except the provider port/,
      },
    ],
  },
  'server/history': {
    file: 'server/history/example.ts',
    allowed: [
      { from: '../summary/model.ts' },
      { from: '../gitlab/api.ts' },
      { from: '../test-reports/migration.ts' },
    ],
    refused: [
      {
        from: '../group-health/index.ts',
        message: /history store .* may not import server\/group-health/,
      },
      {
        from: '../test-reports/store.ts',
        message: /history store .* may not import server\/test-reports\/store/,
      },
    ],
  },
  'server/test-reports': {
    file: 'server/test-reports/example.ts',
    allowed: [{ from: '../history/history-store.ts' }, { from: '../http/app.ts' }],
    refused: [
      {
        from: '../group-health/index.ts',
        message: /test reports .* may not import server\/group-health/,
      },
    ],
  },
  'server/group-health': {
    file: 'server/group-health/example.ts',
    allowed: [{ from: '../history/history-store.ts' }, { from: '../http/app.ts' }],
    refused: [
      {
        from: '../notifications/routes.ts',
        message: /Group health .* may not import server\/notif/,
      },
    ],
  },
  'server/settings': {
    file: 'server/settings/example.ts',
    allowed: [{ from: '../summary/poller.ts' }],
    refused: [
      { from: '../notifications/routes.ts', message: /settings .* may not import server\/notif/ },
    ],
  },
  'server/notifications': {
    file: 'server/notifications/example.ts',
    allowed: [{ from: '../settings/settings-store.ts' }, { from: '../summary/poller.ts' }],
    refused: [{ from: '../ai/index.ts', message: /notifications .* may not import server\/ai/ }],
  },
  'server/groups': {
    file: 'server/groups/example.ts',
    allowed: [{ from: '../gitlab/api.ts' }],
    refused: [
      { from: '../summary/poller.ts', message: /group lookup .* may not import server\/s/ },
    ],
  },
  'server/avatar': {
    file: 'server/avatar/example.ts',
    allowed: [{ from: '../http/app.ts' }],
    refused: [
      { from: '../summary/poller.ts', message: /avatar proxy .* may not import server\/s/ },
    ],
  },
  'server/http': {
    file: 'server/http/example.ts',
    allowed: [{ from: '../platform/errors.ts' }, { from: '../contract.ts', type: true }],
    refused: [
      { from: '../gitlab/client.ts', message: /HTTP plumbing .* may not import server\/g/ },
    ],
  },
  'server/events': {
    file: 'server/events/example.ts',
    allowed: [{ from: '../platform/errors.ts' }],
    refused: [{ from: '../summary/model.ts', message: /event hub .* may not import server\/summ/ }],
  },
  'server/feeds': {
    file: 'server/feeds/example.ts',
    allowed: [
      { from: '../group-health/health-index.ts', type: true },
      { from: '../history/model.ts' },
      { from: '../http/app.ts' },
    ],
    refused: [
      { from: '../summary/poller.ts', message: /cctray feed .* may not import server\/summary/ },
      { from: '../metrics/service-metrics.ts', message: /cctray feed .* may not import server\/m/ },
    ],
  },
  'server/metrics': {
    file: 'server/metrics/example.ts',
    allowed: [
      { from: '../group-health/group-health.ts', type: true },
      { from: '../summary/poller.ts', type: true },
      { from: '../gitlab/request-kind.ts' },
    ],
    refused: [
      { from: '../ai/index.ts', message: /Prometheus metrics .* may not import server\/ai/ },
      { from: '../events/sse-hub.ts', message: /may not import server\/events/ },
      { from: '../feeds/cctray.ts', message: /may not import server\/feeds/ },
    ],
  },
  'server/compose.ts': {
    file: 'server/compose.ts',
    allowed: [{ from: './ai/providers/provider.ts' }, { from: './gitlab-source.ts' }],
    refused: [
      { from: './simulator/index.ts', message: /composition root .* may not import server\/sim/ },
    ],
  },
  'server/gitlab-source.ts': {
    file: 'server/gitlab-source.ts',
    allowed: [{ from: './simulator/index.ts' }, { from: './gitlab/connect.ts' }],
    refused: [{ from: './summary/poller.ts', message: /GitLab-source choice .* may not import/ }],
  },
  'server/config.ts': {
    file: 'server/config.ts',
    allowed: [{ from: './summary/since.ts' }, { from: './settings/settings-store.ts' }],
    refused: [{ from: './gitlab/client.ts', message: /service configuration .* may not import/ }],
  },
  'server/triage': {
    file: 'server/triage/example.ts',
    allowed: [
      { from: '../ai/distill/log-distiller.ts' },
      { from: '../group-health/flaky-jobs.ts' },
      { from: '../history/pipeline-history.ts' },
    ],
    refused: [
      { from: '../ai/providers/provider.ts', message: /Triage .* may not import server\/ai\/pro/ },
      { from: '../notifications/failure-events.ts', message: /Triage .* may not import server\/n/ },
    ],
  },
  'server/contract.ts': {
    file: 'server/contract.ts',
    allowed: [
      { from: './pagination.ts', type: true },
      { from: './group-health/contract.ts', type: true },
      { from: './triage/contract.ts', type: true },
    ],
    refused: [
      { from: './summary/model.ts', type: true, message: /wire contract .* may not import/ },
      { from: './pagination.ts', message: /only types from server\/pagination\.ts/ },
    ],
  },
  'cli/*.ts': {
    file: 'cli/example.ts',
    allowed: [{ from: './oauth/errors.ts' }, { from: '../server/platform/errors.ts' }],
    refused: [{ from: '../server/compose.ts', message: /CLI entry points .* may not import/ }],
  },
  'cli/commands': {
    file: 'cli/commands/example.ts',
    allowed: [{ from: '../../server/compose.ts' }, { from: '../oauth/engine.ts' }],
    refused: [
      { from: '../../server/simulator/index.ts', message: /CLI commands .* may not import/ },
      { from: '../../server/ai/providers/provider.ts', message: /may not import server\/ai\/pro/ },
      { from: '../../renderer/app.tsx', message: /may not import renderer\/app\.tsx/ },
    ],
  },
  'cli/oauth': {
    file: 'cli/oauth/example.ts',
    allowed: [{ from: '../../server/platform/paths.ts' }, { from: './cache-format.ts' }],
    refused: [
      {
        from: '../commands/get-token.ts',
        message:
          /token engine \(cli\/oauth\/\) may not import cli\/commands\/get-token\.ts\. Allowed: cli\/oauth\/\*\*, server\/platform/,
      },
      { from: '../../server/gitlab/client.ts', message: /may not import server\/gitlab/ },
    ],
  },
  'cli/service': {
    file: 'cli/service/example.ts',
    allowed: [{ from: '../../server/contract.ts', type: true }, { from: '../errors.ts' }],
    refused: [
      { from: '../../server/compose.ts', message: /service client .* may not import server\/c/ },
      { from: '../explain/job-ref.ts', message: /service client .* may not import cli\/explain/ },
    ],
  },
  'cli/explain': {
    file: 'cli/explain/example.ts',
    allowed: [
      { from: '../../server/ai/index.ts' },
      { from: '../../server/gitlab/connect.ts' },
      { from: '../service/service-client.ts' },
    ],
    refused: [
      { from: '../../server/ai/providers/provider.ts', message: /may not import server\/ai\/pro/ },
      { from: '../../server/compose.ts', message: /job explainer .* may not import server\/c/ },
      { from: '../commands/explain.ts', message: /job explainer .* may not import cli\/commands/ },
    ],
  },
  'cli/mcp': {
    file: 'cli/mcp/example.ts',
    allowed: [
      { from: '../explain/explain-job.ts' },
      { from: '../../server/ai/distill/log-distiller.ts' },
    ],
    refused: [
      {
        from: '../explain/gitlab-source.ts',
        message: /MCP server .* may not import cli\/explain\/g/,
      },
      { from: '../../server/gitlab/client.ts', message: /MCP server .* may not import server\/g/ },
    ],
  },
  'cli/doctor': {
    file: 'cli/doctor/example.ts',
    allowed: [{ from: '../oauth/cache-lock.ts' }, { from: '../../server/platform/clock.ts' }],
    refused: [
      {
        from: '../../server/config.ts',
        message: /doctor \(cli\/doctor\/\) may not import server\/config/,
      },
      { from: '../commands/doctor.ts', message: /doctor .* may not import cli\/commands/ },
    ],
  },
  'cli/summary': {
    file: 'cli/summary/example.ts',
    allowed: [{ from: '../../server/contract.ts' }, { from: '../../renderer/lib/format.ts' }],
    refused: [
      { from: '../../server/summary/poller.ts', message: /terminal summary .* may not import/ },
    ],
  },
  'main/': {
    file: 'main/example.ts',
    allowed: [{ from: '../cli/oauth/index.ts' }, { from: '../server/http/listen.ts' }],
    refused: [
      {
        from: '../server/simulator/index.ts',
        message: /desktop shell .* may not import server\/s/,
      },
      { from: '../renderer/app.tsx', message: /desktop shell .* may not import renderer/ },
    ],
  },
  'main/ipc-contract.ts': {
    file: 'main/ipc-contract.ts',
    allowed: [],
    refused: [
      { from: './main.ts', type: true, message: /IPC contract .* may not import main\/main\.ts/ },
      { from: 'electron', type: true, message: /may not import electron\. Allowed: nothing/ },
    ],
  },
  'scripts/': {
    file: 'scripts/example.mjs',
    allowed: [{ from: './build-stamp.mjs' }, { from: '../main/tray-icons.ts' }],
    refused: [{ from: '../server/compose.ts', message: /packaging scripts .* may not import/ }],
  },
  'root config files': {
    file: 'example.config.ts',
    allowed: [{ from: './e2e/service.ts' }],
    refused: [{ from: './server/compose.ts', message: /root config files may not import/ }],
  },
  'bench/': {
    file: 'bench/example.bench.ts',
    allowed: [{ from: '../server/testing/service-harness.ts' }, { from: '../cli/oauth/engine.ts' }],
    refused: [{ from: '../renderer/lib/format.ts', message: /benchmarks .* may not import/ }],
  },
  'e2e/': {
    file: 'e2e/example.spec.ts',
    allowed: [
      { from: '../server/simulator/index.ts' },
      { from: '../server/contract.ts', type: true },
    ],
    refused: [
      { from: '../server/summary/poller.ts', message: /end-to-end tests .* may not import/ },
      { from: '../server/contract.ts', message: /only types from server\/contract\.ts/ },
    ],
  },
};

describe('every folder has a zone', () => {
  it.each(Object.entries(ZONES))('%s refuses what it may not import', async (_, zone) => {
    for (const { from, type, message } of zone.refused) {
      expect(await layerErrors(zone.file, importing(from, type)), from).toEqual([
        expect.stringMatching(message),
      ]);
    }
    for (const { from, type } of zone.allowed) {
      expect(await layerErrors(zone.file, importing(from, type)), from).toEqual([]);
    }
  });

  it('refuses a file that no zone covers', async () => {
    for (const file of ['new-folder/example.ts', 'server/new-folder/example.ts', 'cli/new/x.ts']) {
      const [result] = await eslint.lintText('export const x = 1;\n', {
        filePath: path.join(root, file),
      });
      expect(result!.messages.map((m) => m.message)).toEqual([
        `No layering zone covers ${file}: add its folder to a zone in eslint.config.js that says what it may import.`,
      ]);
    }
  });

  it('keeps test code out of production code, and lets tests import across layers', async () => {
    expect(
      await layerErrors('server/summary/example.ts', importing('../gitlab/testing/fake-gitlab.ts')),
    ).toEqual([expect.stringMatching(/may not import test code \(server\/gitlab\/testing\//)]);
    expect(
      await layerErrors('cli/oauth/example.ts', importing('./engine.test.ts', true)),
    ).toHaveLength(1);
    for (const file of ['server/platform/example.test.ts', 'server/gitlab/testing/fake.ts']) {
      expect(await layerErrors(file, importing('../../renderer/app.tsx')), file).toEqual([]);
    }
  });

  it('lets the dashboard import only types from main/ipc-contract.ts', async () => {
    const file = 'renderer/lib/example.ts';
    expect(await layerErrors(file, importing('../../main/ipc-contract.ts', true))).toEqual([]);
    expect(await layerErrors(file, importing('../../main/ipc-contract.ts'))).toEqual([
      expect.stringMatching(/only types from main\/ipc-contract\.ts/),
    ]);
    expect(await layerErrors(file, importing('../../main/preload.ts', true))).toEqual([
      expect.stringMatching(/may not import main\/preload\.ts/),
    ]);
  });
});

describe('the import-cycle check', () => {
  // The files on disk live in a temporary folder linted with the repo's config, so the cycle is
  // real files on both sides and nothing is written into the work tree.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-cycle-'));
  const cycleLint = new ESLint({
    cwd: dir,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The cycle messages for `code` as the file `file` of the temporary folder. */
  async function cycles(file: string, code: string): Promise<string[]> {
    const [result] = await cycleLint.lintText(code, { filePath: path.join(dir, file) });
    return result!.messages.filter((m) => m.ruleId === 'layers/no-cycle').map((m) => m.message);
  }

  /** Writes `code` as `file` of the temporary folder. */
  function write(file: string, code: string): void {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), code);
  }

  it('fails a two-file cycle and names its path', async () => {
    write('two/b.ts', importing('./a.ts'));
    write('two/a.ts', importing('./b.ts'));
    const messages = await cycles('two/a.ts', importing('./b.ts'));
    expect(messages).toEqual([
      expect.stringMatching(/^Import cycle: \S*two\/a\.ts → \S*two\/b\.ts → \S*two\/a\.ts\. /),
    ]);
    const [a, b] = await cycleLint.lintFiles(['two/a.ts', 'two/b.ts']);
    for (const result of [a!, b!]) {
      expect(result.messages.filter((m) => m.ruleId === 'layers/no-cycle')).toHaveLength(1);
    }
  });

  it('counts type-only imports and longer loops, and passes a file that is not on a loop', async () => {
    write('three/b.ts', importing('./c.ts', true));
    write('three/c.ts', "export type * from './a.ts';\n");
    expect(await cycles('three/a.ts', importing('./b.ts', true))).toEqual([
      expect.stringMatching(/three\/a\.ts → \S*three\/b\.ts → \S*three\/c\.ts → \S*three\/a\.ts/),
    ]);
    // The file's own imports come from the code being linted, not the disk: unsaved edits count.
    expect(await cycles('three/a.ts', importing('./other.ts'))).toEqual([]);
    expect(await cycles('three/d.ts', importing('./b.ts'))).toEqual([]);
  });
});
