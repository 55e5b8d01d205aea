import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../../server/testing/temp-dirs.ts';
import { AppError } from '../../server/platform/errors.ts';
import { resolveServeConfig } from './serve.ts';

const homes = tempDirs('ps-cadence-');
const home = homes.make;
afterAll(homes.removeAll);

describe('serve --poll-interval / --idle-interval', () => {
  it('takes flags over POLL_INTERVAL/IDLE_INTERVAL over stored settings', () => {
    const dir = home();
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ pollInterval: '20s', idleInterval: '5m' }),
    );
    const env = { PIPELINE_SUMMARY_HOME: dir, IDLE_INTERVAL: '2m' };
    expect(resolveServeConfig([], env)).toMatchObject({
      cadence: { fastIntervalMs: 20_000, slowIntervalMs: 120_000 },
    });
    expect(
      resolveServeConfig(['--poll-interval', '15s', '--idle-interval', '90s'], env),
    ).toMatchObject({
      cadence: { fastIntervalMs: 15_000, slowIntervalMs: 90_000 },
    });
  });

  it('is a bad_request below the minimums (the CLI exits with its usage status)', () => {
    const env = { PIPELINE_SUMMARY_HOME: home() };
    expect(() => resolveServeConfig(['--poll-interval', '1s'], env)).toThrow(AppError);
    expect(() => resolveServeConfig(['--idle-interval', 'soon'], env)).toThrow(/idle-interval/);
  });
});
