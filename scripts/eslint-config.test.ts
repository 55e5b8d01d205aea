import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

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
      await layerErrors(file, "export const load = () => import('../cli/token/engine.ts');\n"),
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
